// The streamed path of the CPU element-wise kernels (non-temporal stores
// through an L1 block, cpu_elementwise.h) writes exactly what the plain path
// writes, for every alignment of the output and every length around the
// block size, and in place.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <vector>

#include "workloads/cpu_elementwise.h"

using namespace edp;

namespace {

using Kernel = std::function<void(const float*, const float*, float*, int64_t, bool)>;

std::vector<float> elementwise_inputs(size_t n, float salt) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = std::sin(0.37f * static_cast<float>(i) + salt) * 7.0f;
  // Special values land in the head, a block and the tail.
  v[0] = std::numeric_limits<float>::quiet_NaN();
  v[n / 2] = std::numeric_limits<float>::infinity();
  v[n - 1] = -std::numeric_limits<float>::infinity();
  return v;
}

bool same_bits(const std::vector<float>& a, const std::vector<float>& b, size_t off, size_t n) {
  return std::memcmp(a.data() + off, b.data() + off, n * sizeof(float)) == 0;
}

// Eigen evaluates the elements before the first aligned one with its scalar
// exp and tanh, the rest with the vector ones, so the transcendental kernels
// may differ in the last bits where the output's alignment moves that
// boundary (as between two buffers): within 4 ulp, NaN where NaN.
bool within_ulps(const std::vector<float>& a, const std::vector<float>& b) {
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::isnan(a[i]) || std::isnan(b[i])) {
      if (std::isnan(a[i]) != std::isnan(b[i])) return false;
    } else if (a[i] != b[i] && std::fabs(a[i] - b[i]) > 4 * std::numeric_limits<float>::epsilon() *
                                                            std::fmax(std::fabs(a[i]), 1e-30f)) {
      return false;
    }
  }
  return true;
}

}  // namespace

TEST_CASE("streamed element-wise kernels write what the plain ones write", "[workloads][cpu]") {
  // Without streaming stores (AArch64) both calls take the plain path, and
  // this checks only that `stream` changes nothing there.
  if (!cpu::streaming_stores_available()) WARN("no streaming stores in this build");
  const std::vector<std::pair<const char*, Kernel>> kernels = {
      {"copy", [](const float* a, const float*, float* o, int64_t n,
                  bool s) { cpu::copy_chunk(a, o, n, s); }},
      {"add", [](const float* a, const float* b, float* o, int64_t n,
                 bool s) { cpu::add_chunk(a, b, o, n, s); }},
      {"mul", [](const float* a, const float* b, float* o, int64_t n,
                 bool s) { cpu::mul_chunk(a, b, o, n, s); }},
      {"scale", [](const float* a, const float*, float* o, int64_t n,
                   bool s) { cpu::scale_chunk(a, -2.5f, o, n, s); }},
      {"sigmoid", [](const float* a, const float*, float* o, int64_t n,
                     bool s) { cpu::sigmoid_chunk(a, o, n, s); }},
      {"tanh", [](const float* a, const float*, float* o, int64_t n,
                  bool s) { cpu::tanh_chunk(a, o, n, s); }},
  };
  // Around the 4096-float block: shorter than two blocks (not streamed),
  // exact multiples, and a ragged tail; output offsets 0..17 floats move the
  // start across every 64-byte alignment.
  for (const int64_t n : {int64_t{100}, int64_t{8191}, int64_t{8192}, int64_t{3 * 4096 + 37}}) {
    const auto a = elementwise_inputs(static_cast<size_t>(n) + 32, 0.1f);
    const auto b = elementwise_inputs(static_cast<size_t>(n) + 32, 1.3f);
    for (const auto& [name, kernel] : kernels)
      for (const size_t off : {size_t{0}, size_t{1}, size_t{3}, size_t{8}, size_t{17}}) {
        CAPTURE(name, n, off);
        std::vector<float> plain(static_cast<size_t>(n) + 64, 42.0f), streamed = plain;
        kernel(a.data() + 1, b.data() + 2, plain.data() + off, n, false);
        kernel(a.data() + 1, b.data() + 2, streamed.data() + off, n, true);
        const bool exact = std::strcmp(name, "sigmoid") && std::strcmp(name, "tanh");
        // Untouched outside [off, off + n); the same values inside.
        CHECK(same_bits(plain, streamed, 0, off));
        CHECK(same_bits(plain, streamed, off + static_cast<size_t>(n),
                        plain.size() - off - static_cast<size_t>(n)));
        CHECK((exact ? same_bits(plain, streamed, 0, plain.size()) : within_ulps(plain, streamed)));
      }
  }
}

TEST_CASE("a streamed kernel may write over its input", "[workloads][cpu]") {
  const int64_t n = 5 * 4096 + 11;
  auto x = elementwise_inputs(static_cast<size_t>(n), 0.7f);
  std::vector<float> expected(static_cast<size_t>(n));
  cpu::scale_chunk(x.data(), 3.0f, expected.data(), n, false);
  cpu::scale_chunk(x.data(), 3.0f, x.data(), n, true);
  CHECK(same_bits(x, expected, 0, static_cast<size_t>(n)));
}
