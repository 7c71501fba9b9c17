// The operator-workload backend ops (add, sigmoid, tanh, fma_peak) on the host
// backends against the reference oracle, NaN and inf included. The CUDA
// versions are in test_cuda_backend.cpp, behind its GPU skip.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "support/backends.h"
#include "workloads/cpu_backend.h"
#include "workloads/cpu_fma_peak.h"
#include "workloads/reference_backend.h"

using edp::testing::cpu2;
using namespace edp;

namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();
const float kNan = std::numeric_limits<float>::quiet_NaN();

// Normal(0, 2) values with the special values at the front.
std::vector<float> op_inputs(size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> dist(0.0f, 2.0f);
  std::vector<float> v(n);
  for (auto& x : v) x = dist(rng);
  const float special[] = {kNan, kInf, -kInf, 0.0f, -0.0f, 20.0f, -20.0f, 1e-6f, -1e-6f};
  for (size_t i = 0; i < sizeof special / sizeof *special && i < n; ++i) v[i] = special[i];
  return v;
}

std::vector<float> run_unary(Backend& be, const std::vector<float>& x, bool sigmoid) {
  Tensor t = be.empty(1, static_cast<int64_t>(x.size()));
  Tensor out = be.empty(1, static_cast<int64_t>(x.size()));
  be.upload(x.data(), t);
  if (sigmoid)
    be.sigmoid(t, out);
  else
    be.tanh(t, out);
  std::vector<float> host(x.size());
  be.download(out, host.data());
  return host;
}

// Distance in units in the last place, through the ordered integer image of
// the floats (NaN against NaN is 0, NaN against a number is "infinite").
double ulps(float a, float b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b) ? 0 : 1e30;
  auto key = [](float f) {
    int32_t i;
    std::memcpy(&i, &f, sizeof i);
    return i < 0 ? int64_t{INT32_MIN} - i : int64_t{i};
  };
  return static_cast<double>(std::llabs(key(a) - key(b)));
}

// Sizes: one element, a SIMD tail, and one above the CPU backend's threading
// threshold (1 << 15), so both the single-thread and the chunked paths run.
const size_t kSizes[] = {1, 7, 1000, (1u << 15) + 13};

}  // namespace

TEST_CASE("add is exact on every host backend, NaN and inf included", "[workloads][ops]") {
  auto ref = make_reference_backend();
  auto cpu = cpu2();
  for (size_t n : kSizes) {
    const auto a = op_inputs(n, 1), b = op_inputs(n, 2);
    std::vector<float> want(n);
    for (size_t i = 0; i < n; ++i) want[i] = a[i] + b[i];
    for (Backend* be : {ref.get(), cpu.get()}) {
      INFO(be->name() << " n=" << n);
      Tensor ta = be->empty(1, n), tb = be->empty(1, n), out = be->empty(1, n);
      be->upload(a.data(), ta);
      be->upload(b.data(), tb);
      be->add(ta, tb, out);
      std::vector<float> got(n);
      be->download(out, got.data());
      for (size_t i = 0; i < n; ++i) REQUIRE(ulps(got[i], want[i]) == 0);
      be->add(ta, tb, ta);  // out may alias an input
      be->download(ta, got.data());
      for (size_t i = 0; i < n; ++i) REQUIRE(ulps(got[i], want[i]) == 0);
    }
  }
}

TEST_CASE("sigmoid and tanh saturate at +-inf and keep NaN on every host backend",
          "[workloads][ops]") {
  const std::vector<float> x{kNan, kInf, -kInf, 0.0f, 100.0f, -100.0f};
  for (auto make : {+[] { return make_reference_backend(); }, +[] { return cpu2(); }}) {
    auto be = make();
    INFO(be->name());
    const auto s = run_unary(*be, x, true);
    CHECK(std::isnan(s[0]));
    CHECK(s[1] == 1.0f);
    CHECK(s[2] == 0.0f);
    CHECK(s[3] == 0.5f);
    CHECK(s[4] == 1.0f);
    CHECK(s[5] >= 0.0f);
    CHECK(s[5] < 1e-37f);  // 1/(1+e^100) = 3.7e-44: denormal, flushed or not
    // Eigen's rational tanh saturates to within a few ulp of +-1 (exactly on
    // x86 with AVX, a few ulp below with NEON on aarch64), the same bound as
    // its agreement with the reference elsewhere.
    const auto t = run_unary(*be, x, false);
    CHECK(std::isnan(t[0]));
    INFO("tanh(+inf) = " << t[1] << ", tanh(100) = " << t[4]);
    CHECK(ulps(t[1], 1.0f) <= 8);
    CHECK(ulps(t[2], -1.0f) <= 8);
    CHECK(t[3] == 0.0f);
    CHECK(ulps(t[4], 1.0f) <= 8);
    CHECK(ulps(t[5], -1.0f) <= 8);
  }
}

TEST_CASE("cpu sigmoid and tanh are within a few ulp of the reference", "[workloads][ops]") {
  // Eigen evaluates both with rational approximations in float: not
  // bit-identical to the double-precision oracle. The bounds are the
  // largest errors seen over these inputs with margin, and keep the
  // difference far below anything a timing study would notice.
  auto ref = make_reference_backend();
  auto cpu = cpu2();
  for (size_t n : kSizes) {
    const auto x = op_inputs(n, 3);
    for (bool sigmoid : {true, false}) {
      INFO((sigmoid ? "sigmoid" : "tanh") << " n=" << n);
      const auto want = run_unary(*ref, x, sigmoid);
      const auto got = run_unary(*cpu, x, sigmoid);
      double worst = 0;
      for (size_t i = 0; i < n; ++i) {
        // Below 1e-30 the backends may flush; compare absolutely there.
        if (std::fabs(want[i]) < 1e-30f && std::fabs(got[i]) < 1e-30f) continue;
        worst = std::max(worst, ulps(got[i], want[i]));
      }
      CHECK(worst <= 8);
    }
  }
}

TEST_CASE("fma_peak counts 2 FLOP per lane per FMA and leaves a finite sink", "[workloads][ops]") {
  auto ref = make_reference_backend();
  auto cpu = cpu2();
  CHECK(ref->fma_peak_flop(1000) == 2.0 * 8 * 1000);
  CHECK(cpu->fma_peak_flop(1000) == 2.0 * 2 * cpu::fma_peak_lanes() * cpu::kFmaAccumulators * 1000);
  for (Backend* be : {ref.get(), cpu.get()}) {
    Tensor sink = be->empty(1, 1);
    be->fma_peak(1000, sink);
    const float v = be->read_scalar(sink);
    CHECK(std::isfinite(v));
    CHECK(v > 0.0f);
  }
}

TEST_CASE("fma_peak on a 1x2 sink is a shape error", "[workloads][ops]") {
  auto cpu = cpu2();
  Tensor bad = cpu->empty(1, 2);
  CHECK_THROWS_AS(cpu->fma_peak(10, bad), std::invalid_argument);
  Tensor a = cpu->empty(1, 3), b = cpu->empty(1, 4);
  CHECK_THROWS_AS(cpu->add(a, b, a), std::invalid_argument);
  CHECK_THROWS_AS(cpu->sigmoid(a, b), std::invalid_argument);
  CHECK_THROWS_AS(cpu->tanh(a, b), std::invalid_argument);
}
