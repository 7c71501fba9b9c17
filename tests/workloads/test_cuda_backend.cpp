// The CUDA backend against the reference backend (the correctness oracle).
//
// Tests tagged [gpu] need a usable CUDA device. Without one (no CUDA in the
// build, no driver, no device, no kernel image for the GPU) each of them
// prints "skipped: <reason>" as a Catch2 warning and returns; when every test
// case a process ran was skipped that way, the process exits with status 77
// (support/skip.h),
// which ctest's SKIP_RETURN_CODE turns into "Skipped" (catch_discover_tests
// runs one test case per process). Tests without the tag run everywhere.
//
// Tolerances are derived per element from float32 rounding (u = 2^-24), not
// picked: see gemm_bound() and sum_bound().
#define CATCH_CONFIG_EXTERNAL_INTERFACES
#include <catch2/catch.hpp>

#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "edpbench/config.h"
#include "support/skip.h"
#include "workloads/cuda_factory.h"
#include "workloads/mlp.h"
#include "workloads/mlp_stages.h"
#include "workloads/mlp_step.h"
#include "workloads/reference_backend.h"

namespace {

using edp::Backend;
using edp::CudaOptions;
using edp::Tensor;
using edp::Trans;

// ---- skip bookkeeping ---------------------------------------------------------

struct SkipState {
  bool current_skipped = false;
  int cases_run = 0;
  int cases_skipped = 0;
  bool all_skipped = false;
};
SkipState& skip_state() {
  static SkipState state;
  return state;
}

void exit_skipped_if_all_skipped() {
  if (!skip_state().all_skipped) return;
  std::cout.flush();
  std::fflush(nullptr);
  std::_Exit(edp::testing::kSkipExitCode);  // ctest SKIP_RETURN_CODE (tests/CMakeLists.txt)
}

struct GpuSkipListener : Catch::TestEventListenerBase {
  using TestEventListenerBase::TestEventListenerBase;
  void testRunStarting(Catch::TestRunInfo const& info) override {
    TestEventListenerBase::testRunStarting(info);
    std::atexit(exit_skipped_if_all_skipped);  // runs after main has returned and output is written
  }
  void testCaseStarting(Catch::TestCaseInfo const& info) override {
    TestEventListenerBase::testCaseStarting(info);
    skip_state().current_skipped = false;
  }
  void testCaseEnded(Catch::TestCaseStats const& stats) override {
    TestEventListenerBase::testCaseEnded(stats);
    ++skip_state().cases_run;
    if (skip_state().current_skipped) ++skip_state().cases_skipped;
  }
  void testRunEnded(Catch::TestRunStats const& stats) override {
    TestEventListenerBase::testRunEnded(stats);
    auto& s = skip_state();
    s.all_skipped =
        s.cases_run > 0 && s.cases_skipped == s.cases_run && stats.totals.assertions.failed == 0;
  }
};

}  // namespace

CATCH_REGISTER_LISTENER(GpuSkipListener)

// Returns from the TEST_CASE when there is no usable GPU.
#define REQUIRE_GPU_OR_SKIP()                                 \
  do {                                                        \
    const std::string why_ = edp::cuda_unavailable_reason(0); \
    if (!why_.empty()) {                                      \
      WARN("skipped: " << why_);                              \
      skip_state().current_skipped = true;                    \
      return;                                                 \
    }                                                         \
  } while (0)

namespace {

// ---- helpers ------------------------------------------------------------------

constexpr double kU = 0x1p-24;   // unit roundoff of float32
constexpr double kUd = 0x1p-53;  // unit roundoff of double

// Higham's gamma_n = n u / (1 - n u): bound on the relative error of n
// successive roundings (a dot product of length n, in any summation order).
double gamma_n(double n, double u) { return n * u / (1.0 - n * u); }

std::vector<float> random_values(std::size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> dist(0.0f, 1.0f);
  std::vector<float> v(n);
  for (auto& x : v) {
    x = dist(rng);
    if (x == 0.0f) x = 1.0f;  // keep the sign of every element unambiguous
  }
  return v;
}

Tensor make(Backend& b, int64_t rows, int64_t cols, const std::vector<float>& host) {
  Tensor t = b.empty(rows, cols);
  b.upload(host.data(), t);
  return t;
}

std::vector<float> fetch(Backend& b, const Tensor& t) {
  std::vector<float> host(static_cast<std::size_t>(t.numel()));
  b.download(t, host.data());
  return host;
}

std::unique_ptr<Backend> gpu(const std::string& relu = "kernel") {
  CudaOptions options;
  options.relu = relu;
  return edp::make_cuda_backend(options);
}

bool bits_equal(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// Element (i, j) of op(x) for a row-major x.
float at(const std::vector<float>& x, int64_t cols, Trans t, int64_t i, int64_t j) {
  return t == Trans::N ? x[static_cast<std::size_t>(i * cols + j)]
                       : x[static_cast<std::size_t>(j * cols + i)];
}

}  // namespace

// ---- no device needed -----------------------------------------------------------

TEST_CASE("cuda_unavailable_reason and cuda_device_info agree", "[cuda]") {
  const std::string reason = edp::cuda_unavailable_reason(0);
  const auto info = edp::cuda_device_info(0);
  if (reason.empty()) {
    CHECK(info.count("gpu_name") == 1);
    CHECK(info.count("gpu_compute_capability") == 1);
    CHECK(info.count("cublas_version") == 1);
  } else {
    INFO("reason: " << reason);
    CHECK(info.empty());
  }
  CHECK_FALSE(edp::cuda_unavailable_reason(9999).empty());
  CHECK_FALSE(edp::cuda_unavailable_reason(-1).empty());
#if !EDPBENCH_HAVE_CUDA
  CHECK(reason.find("-DEDPBENCH_WITH_CUDA=ON") != std::string::npos);
#endif
}

TEST_CASE("make_cuda_backend refuses what it cannot build with a message saying why", "[cuda]") {
#if EDPBENCH_HAVE_CUDA
  using Catch::Matchers::Contains;
  CudaOptions bogus;
  bogus.relu = "tensorrt";
  // Checked before the device is touched, so this holds on a machine without a GPU.
  CHECK_THROWS_WITH(edp::make_cuda_backend(bogus), Contains("kernel") && Contains("cudnn"));
  CudaOptions poll;
  poll.sync = "poll";
  CHECK_THROWS_WITH(edp::make_cuda_backend(poll), Contains("block, yield, spin"));
#if !EDPBENCH_HAVE_CUDNN
  CudaOptions cudnn;
  cudnn.relu = "cudnn";
  CHECK_THROWS_WITH(edp::make_cuda_backend(cudnn), Contains("no cuDNN"));
#endif
  if (!edp::cuda_unavailable_reason(0).empty()) {
    CHECK_THROWS_AS(edp::make_cuda_backend(CudaOptions{}), std::runtime_error);
  }
  CudaOptions far;
  far.device_index = 9999;
  CHECK_THROWS_WITH(edp::make_cuda_backend(far), Contains("9999"));
#else
  CHECK_THROWS_WITH(edp::make_cuda_backend(CudaOptions{}),
                    Catch::Matchers::Contains("no CUDA support"));
#endif
}

// ---- GPU against the reference ---------------------------------------------------

TEST_CASE("cuda gemm matches the reference within the float32 accumulation bound", "[gpu][cuda]") {
  REQUIRE_GPU_OR_SKIP();
  auto g = gpu();
  auto r = edp::make_reference_backend();

  struct Dims {
    int64_t m, n, k;
  };
  // Odd sizes exercise the cuBLAS edge tiles; 64x150x100 is the small MLP's
  // second layer; k = 1 and m = n = 1 are the degenerate shapes.
  const Dims dims[] = {{1, 1, 1},      {7, 5, 3},      {33, 17, 65},
                       {64, 150, 100}, {100, 64, 257}, {5, 9, 1}};
  const Trans both[] = {Trans::N, Trans::T};
  const float alphas[] = {1.0f, -0.75f};
  const float betas[] = {0.0f, 2.0f};
  unsigned seed = 1;
  for (const auto& d : dims) {
    for (Trans ta : both) {
      for (Trans tb : both) {
        for (float alpha : alphas) {
          for (float beta : betas) {
            const int64_t a_rows = ta == Trans::N ? d.m : d.k, a_cols = ta == Trans::N ? d.k : d.m;
            const int64_t b_rows = tb == Trans::N ? d.k : d.n, b_cols = tb == Trans::N ? d.n : d.k;
            const auto a = random_values(static_cast<std::size_t>(a_rows * a_cols), seed++);
            const auto b = random_values(static_cast<std::size_t>(b_rows * b_cols), seed++);
            auto c0 = random_values(static_cast<std::size_t>(d.m * d.n), seed++);
            // With beta == 0 the contract says c is not read: poison it.
            if (beta == 0.0f) std::fill(c0.begin(), c0.end(), std::nanf(""));

            Tensor ga = make(*g, a_rows, a_cols, a), gb = make(*g, b_rows, b_cols, b);
            Tensor gc = make(*g, d.m, d.n, c0);
            Tensor ra = make(*r, a_rows, a_cols, a), rb = make(*r, b_rows, b_cols, b);
            Tensor rc = make(*r, d.m, d.n, c0);
            g->gemm(ta, tb, alpha, ga, gb, beta, gc);
            r->gemm(ta, tb, alpha, ra, rb, beta, rc);
            const auto got = fetch(*g, gc), want = fetch(*r, rc);

            INFO("m=" << d.m << " n=" << d.n << " k=" << d.k << " ta=" << (ta == Trans::T)
                      << " tb=" << (tb == Trans::T) << " alpha=" << alpha << " beta=" << beta);
            int bad = 0;
            for (int64_t i = 0; i < d.m; ++i) {
              for (int64_t j = 0; j < d.n; ++j) {
                // cuBLAS accumulates k products in float (any order, FMA or
                // not): |error| <= gamma_k * sum|a||b|; alpha and beta add a
                // rounding each, hence gamma_{k+2}. The reference accumulates
                // in double and rounds once: u * |c|. FLT_MIN covers underflow.
                double magnitude = 0.0;
                for (int64_t p = 0; p < d.k; ++p) {
                  magnitude += std::fabs(static_cast<double>(at(a, a_cols, ta, i, p)) *
                                         at(b, b_cols, tb, p, j));
                }
                const std::size_t idx = static_cast<std::size_t>(i * d.n + j);
                const double scaled =
                    std::fabs(alpha) * magnitude +
                    (beta == 0.0f ? 0.0 : std::fabs(static_cast<double>(beta) * c0[idx]));
                const double bound = gamma_n(static_cast<double>(d.k + 2), kU) * scaled +
                                     kU * std::fabs(want[idx]) + std::numeric_limits<float>::min();
                const double err = std::fabs(static_cast<double>(got[idx]) - want[idx]);
                if (!(err <= bound) && bad++ < 5) {
                  FAIL_CHECK("c(" << i << "," << j << ") = " << got[idx] << ", reference "
                                  << want[idx] << ", |diff| " << err << " > bound " << bound);
                }
              }
            }
            CHECK(bad == 0);
          }
        }
      }
    }
  }
}

TEST_CASE("cuda element-wise ops are bit-identical to the reference", "[gpu][cuda]") {
  REQUIRE_GPU_OR_SKIP();
  auto g = gpu();
  auto r = edp::make_reference_backend();
  // Each of these is one correctly rounded IEEE operation (or none), so GPU
  // and CPU must agree exactly. Sizes cover the float4 body and every tail
  // length (n mod 4 = 1, 2, 3, 0) and a grid-stride loop of many blocks.
  const std::pair<int64_t, int64_t> shapes[] = {{1, 1}, {1, 2},   {3, 1},    {1, 4},
                                                {5, 1}, {31, 33}, {300, 203}};
  unsigned seed = 100;
  for (const auto& shape : shapes) {
    const int64_t rows = shape.first, cols = shape.second;
    const std::size_t n = static_cast<std::size_t>(rows * cols);
    auto x = random_values(n, seed++);
    const auto y = random_values(n, seed++);
    // Edge values: zero, tiny, huge.
    const float edges[] = {0.0f, 1e-30f, -1e-30f, 3e38f, -3e38f};
    for (std::size_t i = 0; i < n && i < 5; ++i) x[i * 7 % n] = edges[i];
    INFO("shape " << rows << "x" << cols);

    auto compare = [&](const char* op, const Tensor& gt, const Tensor& rt) {
      const auto got = fetch(*g, gt), want = fetch(*r, rt);
      int bad = 0;
      for (std::size_t i = 0; i < n; ++i) {
        if (!bits_equal(got[i], want[i]) && !(got[i] == want[i]) && bad++ < 5) {
          FAIL_CHECK(op << "[" << i << "] = " << got[i] << ", reference " << want[i]);
        }
      }
      CHECK(bad == 0);
    };

    Tensor gx = make(*g, rows, cols, x), gy = make(*g, rows, cols, y);
    Tensor rx = make(*r, rows, cols, x), ry = make(*r, rows, cols, y);
    Tensor go = g->empty(rows, cols), ro = r->empty(rows, cols);

    g->relu(gx, go), r->relu(rx, ro), compare("relu", go, ro);
    g->relu_backward(gy, gx, go), r->relu_backward(ry, rx, ro), compare("relu_backward", go, ro);
    g->sub(gx, gy, go), r->sub(rx, ry, ro), compare("sub", go, ro);
    g->mul(gx, gy, go), r->mul(rx, ry, ro), compare("mul", go, ro);
    g->scale(gx, -0.37f, go), r->scale(rx, -0.37f, ro), compare("scale", go, ro);
    g->square(gy, go), r->square(ry, ro), compare("square", go, ro);
    g->fill(go, 0.0f), r->fill(ro, 0.0f), compare("fill 0", go, ro);
    g->fill(go, -2.5f), r->fill(ro, -2.5f), compare("fill -2.5", go, ro);
    g->copy(gx, go), r->copy(rx, ro), compare("copy", go, ro);

    Tensor gs = make(*g, 1, 1, {1.25f}), rs = make(*r, 1, 1, {1.25f});
    g->broadcast(gs, go), r->broadcast(rs, ro), compare("broadcast", go, ro);

    // Outputs may alias inputs (the autograd tape updates in place).
    Tensor ga = make(*g, rows, cols, x), ra = make(*r, rows, cols, x);
    g->relu(ga, ga), r->relu(ra, ra), compare("relu in place", ga, ra);
    g->sub(ga, gy, ga), r->sub(ra, ry, ra), compare("sub in place", ga, ra);
    Tensor gg = make(*g, rows, cols, y), rg = make(*r, rows, cols, y);
    g->relu_backward(gg, gx, gg), r->relu_backward(rg, rx, rg);
    compare("relu_backward in place", gg, rg);
  }
}

TEST_CASE("cuda relu keeps NaN on both paths and masks the gradient only where x < 0",
          "[gpu][cuda][cudnn]") {
  REQUIRE_GPU_OR_SKIP();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  std::vector<std::string> paths{"kernel"};
#if EDPBENCH_HAVE_CUDNN
  paths.push_back("cudnn");  // CUDNN_PROPAGATE_NAN: without it cuDNN turns NaN into 0
#endif
  for (const auto& relu : paths) {
    INFO("relu: " << relu);
    auto g = gpu(relu);
    Tensor x = make(*g, 1, 5, {nan, -1.0f, 0.0f, 2.0f, -nan});
    Tensor gy = make(*g, 1, 5, {10.0f, 20.0f, 30.0f, 40.0f, 50.0f});
    Tensor y = g->empty(1, 5), gx = g->empty(1, 5);
    g->relu(x, y);
    const auto yv = fetch(*g, y);
    CHECK(std::isnan(yv[0]));  // a diverged run stays visibly diverged
    CHECK(yv[1] == 0.0f);
    CHECK(yv[2] == 0.0f);
    CHECK(yv[3] == 2.0f);
    CHECK(std::isnan(yv[4]));
    // In place, as the autograd tape runs it.
    Tensor z = make(*g, 1, 5, {nan, -1.0f, 0.0f, 2.0f, -nan});
    g->relu(z, z);
    const auto zv = fetch(*g, z);
    CHECK(std::isnan(zv[0]));
    CHECK(std::isnan(zv[4]));
    if (relu != "kernel") continue;
    // DESIGN §2: "masked where h < 0": the gradient passes at h == 0. (cuDNN's
    // derivative at 0, and at NaN, follow its own convention: docs/gpu.md.)
    g->relu_backward(gy, x, gx);
    const auto gxv = fetch(*g, gx);
    CHECK(gxv[1] == 0.0f);
    CHECK(gxv[2] == 30.0f);
    CHECK(gxv[3] == 40.0f);
  }
}

TEST_CASE("cuda axpy matches the reference within two roundings", "[gpu][cuda]") {
  REQUIRE_GPU_OR_SKIP();
  auto g = gpu();
  auto r = edp::make_reference_backend();
  const int64_t rows = 129, cols = 67;
  const std::size_t n = static_cast<std::size_t>(rows * cols);
  const auto x = random_values(n, 7), y = random_values(n, 8);
  const float alpha = -0.3f;
  Tensor gx = make(*g, rows, cols, x), gy = make(*g, rows, cols, y);
  Tensor rx = make(*r, rows, cols, x), ry = make(*r, rows, cols, y);
  g->axpy(alpha, gx, gy);
  r->axpy(alpha, rx, ry);
  const auto got = fetch(*g, gy), want = fetch(*r, ry);
  int bad = 0;
  for (std::size_t i = 0; i < n; ++i) {
    // The GPU fuses y + alpha x into one FMA (one rounding), the CPU may round
    // the product first (two): each is within gamma_2 (|y| + |alpha x|).
    const double bound =
        2.0 * gamma_n(2, kU) * (std::fabs(y[i]) + std::fabs(static_cast<double>(alpha) * x[i]));
    const double err = std::fabs(static_cast<double>(got[i]) - want[i]);
    if (!(err <= bound) && bad++ < 5) {
      FAIL_CHECK("y[" << i << "] = " << got[i] << ", reference " << want[i] << " > " << bound);
    }
  }
  CHECK(bad == 0);
}

TEST_CASE("cuda sum and sub_square_sum accumulate in double", "[gpu][cuda]") {
  REQUIRE_GPU_OR_SKIP();
  auto g = gpu();
  auto r = edp::make_reference_backend();

  // Both backends add in double (in different orders) and round once to
  // float: |difference| <= 2 gamma_n(double) sum|x| + u (|got| + |want|).
  auto sum_bound = [](std::size_t n, double abs_sum, float got, float want) {
    return 2.0 * gamma_n(static_cast<double>(n), kUd) * abs_sum +
           kU * (std::fabs(got) + std::fabs(want)) + std::numeric_limits<float>::min();
  };

  SECTION("against the reference, random data of several sizes") {
    const std::pair<int64_t, int64_t> shapes[] = {{1, 1}, {1, 3}, {64, 150}, {257, 1000}};
    unsigned seed = 500;
    for (const auto& shape : shapes) {
      const int64_t rows = shape.first, cols = shape.second;
      const std::size_t n = static_cast<std::size_t>(rows * cols);
      const auto a = random_values(n, seed++), b = random_values(n, seed++);
      INFO("shape " << rows << "x" << cols);
      Tensor ga = make(*g, rows, cols, a), gb = make(*g, rows, cols, b);
      Tensor ra = make(*r, rows, cols, a), rb = make(*r, rows, cols, b);
      Tensor gs = g->empty(1, 1), rs = r->empty(1, 1);
      Tensor gd = g->empty(rows, cols), rd = r->empty(rows, cols);

      g->sum(ga, gs);
      r->sum(ra, rs);
      double abs_sum = 0.0;
      for (float v : a) abs_sum += std::fabs(v);
      const float got = g->read_scalar(gs), want = r->read_scalar(rs);
      CHECK(std::fabs(static_cast<double>(got) - want) <= sum_bound(n, abs_sum, got, want));

      g->sub_square_sum(ga, gb, gd, gs);
      r->sub_square_sum(ra, rb, rd, rs);
      double sq_sum = 0.0;
      for (std::size_t i = 0; i < n; ++i) {
        const double d = static_cast<double>(a[i] - b[i]);
        sq_sum += d * d;
      }
      const float got2 = g->read_scalar(gs), want2 = r->read_scalar(rs);
      CHECK(std::fabs(static_cast<double>(got2) - want2) <= sum_bound(n, sq_sum, got2, want2));
      // diff is a - b, rounded once on both sides: identical.
      CHECK(fetch(*g, gd) == fetch(*r, rd));
    }
  }

  SECTION("every thread's own total passes 2^24, on any grid the device launches") {
    // The reductions accumulate in double per thread, then per block, then
    // over the blocks (Backend::sum contract). A float accumulator anywhere
    // stops adding 1 once it holds 2^24. With a grid-stride loop a thread's
    // total depends on the grid, which depends on the device: a TX2 runs 16
    // blocks, an H200 1024 (kReduceMaxBlocks, kernels.h). So the first 2^18
    // elements, at least one for each of the at most 1024 x 256 threads, are
    // 2^24 themselves: every thread's total passes 2^24 before its first 1,
    // and a float accumulator loses every 1 after it. The 2^21 ones are still
    // visible in the float result: 2^18 x 2^24 + 2^21 = 2^42 + 2^21, whose
    // float ulp is 2^19.
    const int64_t big = int64_t{1} << 18, ones = int64_t{1} << 21, n = big + ones;
    std::vector<float> a(static_cast<std::size_t>(n), 1.0f);
    std::fill(a.begin(), a.begin() + big, 16777216.0f);  // 2^24
    Tensor ga = make(*g, n, 1, a), s = g->empty(1, 1);
    g->sum(ga, s);
    CHECK(g->read_scalar(s) == 4398048608256.0f);  // 2^42 + 2^21, exact in float
    // sub_square_sum: differences of 2^12 square to 2^24, then 1s.
    std::vector<float> b(static_cast<std::size_t>(n), 0.0f);
    std::fill(a.begin(), a.begin() + big, 4096.0f);
    Tensor gd = make(*g, n, 1, a), gz = make(*g, n, 1, b), diff = g->empty(n, 1);
    g->sub_square_sum(gd, gz, diff, s);
    CHECK(g->read_scalar(s) == 4398048608256.0f);
    // And the plain case of many small values: 2^24 + 1000 halves.
    const int64_t m = (int64_t{1} << 24) + 1000;
    Tensor halves = g->empty(m, 1);
    g->fill(halves, 0.5f);
    g->sum(halves, s);
    CHECK(g->read_scalar(s) == static_cast<float>(m) * 0.5f);  // 8389108, exact
  }

  SECTION("an empty tensor sums to zero") {
    Tensor none = g->empty(0, 5), s = g->empty(1, 1);
    g->fill(s, 7.0f);
    g->sum(none, s);
    CHECK(g->read_scalar(s) == 0.0f);
  }
}

TEST_CASE("cuda kernel and cuDNN ReLU give identical values", "[gpu][cuda][cudnn]") {
  REQUIRE_GPU_OR_SKIP();
#if !EDPBENCH_HAVE_CUDNN
  WARN("skipped: this build has no cuDNN (configure with -DEDPBENCH_WITH_CUDNN=ON)");
  skip_state().current_skipped = true;
  return;
#else
  auto k = gpu("kernel");
  auto c = gpu("cudnn");
  CHECK(k->describe().at("relu") == "kernel");
  CHECK(c->describe().at("relu") == "cudnn");
  CHECK(c->describe().count("cudnn_version") == 1);
  // No exact zeros: at x == 0 the cuDNN derivative follows cuDNN's own
  // convention (docs/gpu.md); everywhere else ReLU and its mask are exact.
  const int64_t rows = 193, cols = 301;
  const std::size_t n = static_cast<std::size_t>(rows * cols);
  const auto x = random_values(n, 42), gy = random_values(n, 43);
  Tensor kx = make(*k, rows, cols, x), kg = make(*k, rows, cols, gy);
  Tensor cx = make(*c, rows, cols, x), cg = make(*c, rows, cols, gy);
  Tensor ky = k->empty(rows, cols), cy = c->empty(rows, cols);
  Tensor kgx = k->empty(rows, cols), cgx = c->empty(rows, cols);
  k->relu(kx, ky);
  c->relu(cx, cy);
  k->relu_backward(kg, kx, kgx);
  c->relu_backward(cg, cx, cgx);
  const auto ky_h = fetch(*k, ky), cy_h = fetch(*c, cy);
  const auto kgx_h = fetch(*k, kgx), cgx_h = fetch(*c, cgx);
  int bad = 0;
  for (std::size_t i = 0; i < n; ++i) {
    // ReLU only selects values, so they must be identical; == rather than a
    // bit compare because cuDNN may form a masked zero as dy * 0 = -0.
    if ((!(ky_h[i] == cy_h[i]) || !(kgx_h[i] == cgx_h[i])) && bad++ < 5) {
      FAIL_CHECK("x[" << i << "] = " << x[i] << ": relu " << ky_h[i] << " vs " << cy_h[i]
                      << ", grad " << kgx_h[i] << " vs " << cgx_h[i]);
    }
  }
  CHECK(bad == 0);

  // In place, as the autograd tape does it (backward first: after relu in
  // place, x would hold exact zeros).
  c->relu_backward(cg, cx, cg);
  k->relu_backward(kg, kx, kg);
  c->relu(cx, cx);
  k->relu(kx, kx);
  CHECK(fetch(*c, cg) == fetch(*k, kg));
  CHECK(fetch(*c, cx) == fetch(*k, kx));
#endif
}

TEST_CASE("cuda backend reuses pooled blocks, and tensors may outlive it", "[gpu][cuda]") {
  REQUIRE_GPU_OR_SKIP();
  Tensor survivor;
  {
    auto g = gpu();
    Tensor t = g->empty(64, 100);
    const float* first = t.data();
    t = Tensor();
    Tensor again = g->empty(64, 100);
    CHECK(again.data() == first);  // same size class: served from the free list
    CHECK(std::stoi(g->describe().at("pool_reuses")) >= 1);
    survivor = g->empty(3, 3);
    g->fill(survivor, 1.0f);
    g->synchronize();
  }
  // The backend is gone; dropping its last tensor must free, not crash.
  survivor = Tensor();
  SUCCEED("tensor released after its backend");
}

// Tagged [api-error]: the failed cudaMalloc is the point of the test, and
// compute-sanitizer's memcheck counts every failed API call as an error, so
// scripts/gpu-check.sh runs this case under memcheck with
// --report-api-errors no and every other case with them reported.
TEST_CASE("cuda out-of-memory is a catchable runtime_error and the backend keeps working",
          "[gpu][cuda][api-error]") {
  REQUIRE_GPU_OR_SKIP();
  auto g = gpu();
  // 2^21 x 2^20 floats = 8 TiB: more than any GPU (or Tegra's shared DRAM).
  try {
    g->empty(int64_t{1} << 21, int64_t{1} << 20);
    FAIL("an 8 TiB allocation succeeded");
  } catch (const std::runtime_error& e) {
    const std::string what = e.what();
    INFO(what);
    CHECK(what.find("cudaMalloc") != std::string::npos);
    CHECK(what.find("memory") != std::string::npos);
  }
  Tensor a = make(*g, 2, 2, {1, 2, 3, 4}), c = g->empty(2, 2);
  g->gemm(Trans::N, Trans::N, 1.0f, a, a, 0.0f, c);
  CHECK(fetch(*g, c) == std::vector<float>{7, 10, 15, 22});
  // A kernel launch checks cudaGetLastError(), which must not report the
  // failed cudaMalloc a second time (cuda_check.cpp clears it when it throws).
  CHECK_NOTHROW(g->relu(c, a));
  CHECK(fetch(*g, a) == std::vector<float>{7, 10, 15, 22});
}

TEST_CASE("cuda shape mismatches throw invalid_argument", "[gpu][cuda]") {
  REQUIRE_GPU_OR_SKIP();
  auto g = gpu();
  Tensor a = g->empty(2, 3), b = g->empty(3, 2), c = g->empty(2, 2), s = g->empty(1, 1);
  // Filled: the calls that are allowed below read them (compute-sanitizer's
  // initcheck reported cuBLAS reading the uninitialised inputs on an H200).
  g->fill(a, 1.0f);
  g->fill(b, 2.0f);
  CHECK_THROWS_AS(g->sub(a, b, a), std::invalid_argument);
  CHECK_THROWS_AS(g->relu(a, b), std::invalid_argument);
  CHECK_THROWS_AS(g->gemm(Trans::N, Trans::N, 1.0f, a, a, 0.0f, c), std::invalid_argument);
  CHECK_THROWS_AS(g->sum(a, c), std::invalid_argument);
  CHECK_THROWS_AS(g->broadcast(c, a), std::invalid_argument);
  CHECK_THROWS_AS(g->read_scalar(a), std::invalid_argument);
  CHECK_NOTHROW(g->gemm(Trans::N, Trans::N, 1.0f, a, b, 0.0f, c));
  CHECK_NOTHROW(g->sum(a, s));
  g->synchronize();
}

TEST_CASE("cuda device timer times queued work and describe names the paths",
          "[gpu][cuda][timing]") {
  REQUIRE_GPU_OR_SKIP();
  auto g = gpu();
  const auto facts = g->describe();
  CHECK(g->name() == "cuda");
  CHECK(facts.at("relu") == "kernel");
  CHECK(facts.count("compute_capability") == 1);
  CHECK(facts.count("cublas_version") == 1);
  CHECK(facts.at("gemm").find("TF32 off") != std::string::npos);

  Tensor a = g->empty(512, 512), c = g->empty(512, 512);
  g->fill(a, 0.01f);
  // The device time lies inside the host's bracket around start ... stop,
  // however slow the machine (a loaded runner, ASan, compute-sanitizer's
  // racecheck: 20 GEMMs took 10.7 s under it on an H200).
  const auto h0 = std::chrono::steady_clock::now();
  g->start_device_timer();
  for (int i = 0; i < 20; ++i) g->gemm(Trans::N, Trans::N, 1.0f, a, a, 0.0f, c);
  const double busy_s = g->stop_device_timer_s();
  const double host_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - h0).count();
  CHECK(busy_s > 0.0);
  CHECK(busy_s <= host_s + 1e-3);
  g->start_device_timer();  // nothing queued in between
  const double idle_s = g->stop_device_timer_s();
  CHECK(idle_s >= 0.0);
  CHECK(idle_s < busy_s);
}

namespace {

double seconds_between(std::chrono::steady_clock::time_point a,
                       std::chrono::steady_clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

// Device seconds of `steps` GEMMs of n x n, timed with the run timer.
double timed_gemms(Backend& g, Tensor& a, Tensor& c, int steps) {
  g.start_device_timer();
  for (int i = 0; i < steps; ++i) g.gemm(Trans::N, Trans::N, 1.0f, a, a, 0.0f, c);
  return g.stop_device_timer_s();
}

}  // namespace

TEST_CASE("backends without a device timer answer -1", "[cuda]") {
  auto ref = edp::make_reference_backend();
  ref->start_device_timer();
  CHECK(ref->stop_device_timer_s() == -1.0);
}

// [alone]: it compares timings of two runs; beside other tests (four at a
// time in CI's simulator suite, whose device time is CPU time) 8 steps once
// read less than 4.
TEST_CASE("cuda device timer brackets the steps, not the host work around them",
          "[gpu][cuda][timing][alone]") {
  REQUIRE_GPU_OR_SKIP();
  using Clock = std::chrono::steady_clock;
  auto g = gpu();
  CHECK_THROWS_AS(g->stop_device_timer_s(), std::logic_error);  // no start

  const int64_t n = 1024;
  Tensor a = g->empty(n, n), c = g->empty(n, n);
  g->fill(a, 0.001f);
  g->gemm(Trans::N, Trans::N, 1.0f, a, a, 0.0f, c);  // warm-up: cuBLAS picks its kernel
  g->synchronize();

  // Enough steps for at least ~20 ms of GPU work on this GPU.
  int steps = 4;
  double t_steps = timed_gemms(*g, a, c, steps);
  while (t_steps < 0.02 && steps < (1 << 16)) {
    steps *= 2;
    t_steps = timed_gemms(*g, a, c, steps);
  }
  INFO("steps " << steps << ", device time " << t_steps << " s");
  REQUIRE(t_steps > 0.0);

  // The timer grows with the work it brackets. Each side is the least of
  // three timings: when the host cannot queue the steps as fast as the GPU
  // runs them (a loaded machine, a sanitizer), the GPU idles between them and
  // the events count the gaps, which only ever add time (under memcheck on an
  // H200 twice the steps read 3.9x, not 2x); the least is the closest to the
  // work alone, and twice the work stays longer than the work.
  double t_one = t_steps, t_two = timed_gemms(*g, a, c, 2 * steps);
  for (int i = 0; i < 2; ++i) {
    t_one = std::min(t_one, timed_gemms(*g, a, c, steps));
    t_two = std::min(t_two, timed_gemms(*g, a, c, 2 * steps));
  }
  INFO("least of three: " << steps << " steps " << t_one << " s, " << 2 * steps << " steps "
                          << t_two << " s");
  CHECK(t_two > 1.2 * t_one);

  // Host time before start and after stop is not counted: the device time
  // lies inside the host's own bracket around start ... stop, which leaves
  // out both sleeps (each longer than the bracket's work on any machine
  // that passed the line above, 100 and 150 ms against >= 20 ms).
  std::this_thread::sleep_for(std::chrono::milliseconds(100));  // GPU idle, before start
  const auto w0 = Clock::now();
  const double t = timed_gemms(*g, a, c, steps);
  const auto w1 = Clock::now();
  std::this_thread::sleep_for(std::chrono::milliseconds(150));  // "bookkeeping" after stop
  INFO("timer " << t << " s, host bracket " << seconds_between(w0, w1) << " s");
  CHECK(t > 0.0);
  CHECK(t <= seconds_between(w0, w1) + 1e-3);  // neither sleep is counted

  // The timer can be used again; a stop after a stop has no start.
  CHECK(timed_gemms(*g, a, c, 1) > 0.0);
  CHECK_THROWS_AS(g->stop_device_timer_s(), std::logic_error);
}

TEST_CASE("cuda sync mode is set on the context, read back and reported", "[gpu][cuda]") {
  REQUIRE_GPU_OR_SKIP();
  using Catch::Matchers::Contains;
  const std::pair<const char*, const char*> modes[] = {{"spin", "cudaDeviceScheduleSpin"},
                                                       {"yield", "cudaDeviceScheduleYield"},
                                                       {"block", "cudaDeviceScheduleBlockingSync"}};
  for (const auto& mode : modes) {
    INFO("sync " << mode.first);
    edp::cuda_release_device(0);  // a fresh context takes the flags on every CUDA version
    CudaOptions o;
    o.sync = mode.first;
    auto g = edp::make_cuda_backend(o);
    const auto facts = g->describe();
    CHECK(facts.at("sync") == mode.first);
    CHECK(facts.at("sync_flag") == mode.second);
    // The backend works, and waits, in that mode.
    Tensor s = g->empty(1, 1);
    g->fill(s, 2.5f);
    CHECK(g->read_scalar(s) == 2.5f);
    g->start_device_timer();
    CHECK(g->stop_device_timer_s() >= 0.0);
  }
  edp::cuda_release_device(0);

  // One context has one host-wait mode: a second live backend must agree.
  CudaOptions spin;
  spin.sync = "spin";
  auto first = edp::make_cuda_backend(spin);
  CudaOptions block;  // "block" is the default
  CHECK_THROWS_WITH(edp::make_cuda_backend(block), Contains("gpu.sync") && Contains("spin"));
  auto second = edp::make_cuda_backend(spin);  // the same mode is fine
  CHECK(second->describe().at("sync_flag") == "cudaDeviceScheduleSpin");
  second.reset();
  first.reset();

  // The spin context is still alive (nobody released it). CUDA 11 and later
  // change a live context's flags; CUDA 10.2 cannot, and must say so.
  std::unique_ptr<Backend> after;
  try {
    after = edp::make_cuda_backend(block);
  } catch (const std::exception& e) {
    INFO(e.what());
    CHECK_THAT(e.what(), Contains("cuda_release_device") && Contains("cudaDeviceScheduleSpin"));
  }
  if (after) CHECK(after->describe().at("sync_flag") == "cudaDeviceScheduleBlockingSync");
  after.reset();
  edp::cuda_release_device(0);
}

TEST_CASE("cuda_release_device leaves no context once backends and tensors are gone",
          "[gpu][cuda]") {
  REQUIRE_GPU_OR_SKIP();
  edp::cuda_release_device(0);
  CHECK_FALSE(edp::cuda_primary_context_active(0));
  // The cached probe answers without making a context.
  CHECK(edp::cuda_unavailable_reason(0).empty());
  CHECK_FALSE(edp::cuda_device_info(0).empty());
  CHECK_FALSE(edp::cuda_primary_context_active(0));

  auto g = gpu();
  CHECK(edp::cuda_primary_context_active(0));
  Tensor t = g->empty(16, 16);
  g->fill(t, 1.0f);
  edp::cuda_release_device(0);  // the backend is alive: nothing happens
  CHECK(edp::cuda_primary_context_active(0));
  std::vector<float> host(256, 0.0f);
  g->download(t, host.data());
  CHECK(host[255] == 1.0f);

  g.reset();
  edp::cuda_release_device(0);  // a tensor of it is alive: its memory is in the context
  CHECK(edp::cuda_primary_context_active(0));
  t = Tensor();
  edp::cuda_release_device(0);
  CHECK_FALSE(edp::cuda_primary_context_active(0));

  // A later backend makes a fresh context and works.
  auto again = gpu();
  Tensor s = again->empty(1, 1);
  again->fill(s, 3.0f);
  CHECK(again->read_scalar(s) == 3.0f);
  again.reset();
  s = Tensor();
  edp::cuda_release_device(0);
  CHECK_FALSE(edp::cuda_primary_context_active(0));
}

// Run by the next test in a fresh process (exec of this executable), so that
// the probe below is the first CUDA call of the process whatever ran before.
TEST_CASE("cuda probe child", "[.cuda-probe-child]") {
  CHECK_FALSE(edp::cuda_primary_context_active(0));
  const std::string reason = edp::cuda_unavailable_reason(0);
  if (!reason.empty()) return;  // the parent skips in this case
  CHECK_FALSE(edp::cuda_device_info(0).empty());
  CHECK_FALSE(edp::cuda_primary_context_active(0));
}

TEST_CASE("cuda probe of a fresh process leaves no context behind", "[gpu][cuda]") {
  REQUIRE_GPU_OR_SKIP();
  char exe[4096];
  const ssize_t len = ::readlink("/proc/self/exe", exe, sizeof exe - 1);
  REQUIRE(len > 0);
  exe[len] = '\0';
  std::fflush(nullptr);
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    ::execl(exe, exe, "cuda probe child", static_cast<char*>(nullptr));
    std::_Exit(127);
  }
  int status = 0;
  REQUIRE(::waitpid(pid, &status, 0) == pid);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
}

TEST_CASE("cuda MLP training follows the reference loss trajectory", "[gpu][cuda]") {
  REQUIRE_GPU_OR_SKIP();
  // Same problem and tolerance as the cpu backend's end-to-end test: the first
  // loss differs by at most the GEMM bound (gamma(d_in) ~ 2e-5 relative, far
  // less in practice); ten SGD steps on a well-conditioned problem amplify
  // that only mildly. 1e-4 relative catches any wrong op, transpose or mask.
  const edp::MlpData init = edp::make_initial_data({32, 300, 40, 10}, 3, 0.1);
  auto trajectory = [&](Backend& b, const std::string& workload) {
    auto w = edp::make_mlp_workload(workload, b, init, 1e-2f);
    std::vector<float> loss;
    for (int i = 0; i < 10; ++i) {
      w->step();
      loss.push_back(b.read_scalar(w->loss()));
    }
    return loss;
  };
  auto ref = edp::make_reference_backend();
  std::vector<std::string> paths{"kernel"};
#if EDPBENCH_HAVE_CUDNN
  paths.push_back("cudnn");
#endif
  for (const auto& relu : paths) {
    auto g = gpu(relu);
    for (const auto& workload : edp::mlp_workload_names()) {
      INFO(workload << " relu=" << relu);
      const auto want = trajectory(*ref, workload);
      const auto got = trajectory(*g, workload);
      REQUIRE(got.size() == want.size());
      CHECK(want.back() < want.front());  // the problem is well posed: the loss falls
      for (std::size_t i = 0; i < got.size(); ++i) {
        CHECK(got[i] == Approx(want[i]).epsilon(1e-4));
      }
    }
  }
}

// ---- operator workloads (DESIGN §2.3) ---------------------------------------------

TEST_CASE("cuda add is bit-identical to the reference, sigmoid and tanh within 4 ulp",
          "[gpu][cuda][ops]") {
  REQUIRE_GPU_OR_SKIP();
  auto g = gpu();
  auto r = edp::make_reference_backend();
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  for (int64_t n : {int64_t{1}, int64_t{7}, int64_t{100003}}) {
    INFO("n " << n);
    auto x = random_values(static_cast<std::size_t>(n), 7), y = random_values(n, 8);
    const float special[] = {nan, inf, -inf, 0.0f, 20.0f, -20.0f};
    for (std::size_t i = 0; i < 6 && i < x.size(); ++i) x[i] = special[i];
    Tensor gx = make(*g, 1, n, x), gy = make(*g, 1, n, y), go = g->empty(1, n);
    Tensor rx = make(*r, 1, n, x), ry = make(*r, 1, n, y), ro = r->empty(1, n);
    g->add(gx, gy, go), r->add(rx, ry, ro);
    auto got = fetch(*g, go), want = fetch(*r, ro);
    // A NaN result is a NaN, but not bit for bit: a GPU returns the canonical
    // NaN 0x7fffffff where the CPU keeps the operand's payload (0x7fc00000 +
    // payload). Seen on an H200 (docs/gpu.md, "On a real GPU"); the simulator
    // computes on the CPU and cannot show it.
    for (std::size_t i = 0; i < got.size(); ++i) {
      INFO("add(" << x[i] << ", " << y[i] << ")");
      if (std::isnan(want[i])) {
        REQUIRE(std::isnan(got[i]));
      } else {
        REQUIRE(bits_equal(got[i], want[i]));
      }
    }
    for (int op = 0; op < 2; ++op) {
      if (op == 0)
        g->sigmoid(gx, go), r->sigmoid(rx, ro);
      else
        g->tanh(gx, go), r->tanh(rx, ro);
      got = fetch(*g, go), want = fetch(*r, ro);
      for (std::size_t i = 0; i < got.size(); ++i) {
        INFO((op == 0 ? "sigmoid" : "tanh") << "(" << x[i] << ")");
        if (std::isnan(want[i])) {
          REQUIRE(std::isnan(got[i]));
        } else {
          REQUIRE(std::fabs(got[i] - want[i]) <= 4 * kU * 2 * std::fabs(want[i]) + 1e-37);
        }
      }
    }
  }
}

TEST_CASE("cuda fma_peak fills every SM and its sink sums every chain", "[gpu][cuda][ops]") {
  REQUIRE_GPU_OR_SKIP();
  auto g = gpu();
  const auto facts = g->describe();
  const double sms = std::stod(facts.at("sm_count"));
  const int64_t rounds = 1000;
  const double flop = g->fma_peak_flop(rounds);
  CHECK(flop >= 2.0 * 8 * rounds * 256 * sms);
  CHECK(std::stoll(facts.at("l2_cache_bytes")) > 0);
  // The sink is the sum of every chain of every thread of every block, added
  // across warps and blocks with atomicAdd. Each chain is computed here as
  // the GPU does (fmaf is one rounding on both); only the order of the float
  // additions differs: at most 8 + 5 per thread and warp, then one per warp
  // of the grid, each within u of a positive sum (gamma bound). A lost update
  // (a plain += in place of atomicAdd) drops whole warps' totals.
  const double blocks = flop / (2.0 * 8 * rounds * 256);
  double per_block = 0.0;
  for (int t = 0; t < 256; ++t) {
    for (int j = 0; j < 8; ++j) {
      float acc = static_cast<float>(t + j);
      for (int64_t r = 0; r < rounds; ++r) acc = std::fmaf(acc, 0.999999f, 1e-3f);
      per_block += acc;
    }
  }
  const double want = per_block * blocks;
  Tensor sink = g->empty(1, 1);
  g->fma_peak(rounds, sink);
  const float v = g->read_scalar(sink);
  const double additions = 8 + 5 + 8 * blocks;
  INFO("blocks " << blocks << ", sink " << v << ", chains on the host " << want);
  CHECK(std::fabs(v - want) <= gamma_n(additions, kU) * want);
}

TEST_CASE("cuda MLP items hold on the device what the memory check counts", "[gpu][cuda][memory]") {
  // Issue 33: the device part of an item's estimate (its tensor list, as
  // memory.csv reports it, plus the backend's 8 KiB reduction scratch and the
  // pool's 512-byte size classes) against the pool's high-water mark, the
  // most it ever held from the device (in use and cached): within 10% above.
  REQUIRE_GPU_OR_SKIP();
  const std::vector<edp::MlpShape> shapes{
      {64, 1500, 100, 15}, {192, 2000, 300, 20}, {64, 15000, 100, 150}, {192, 20000, 300, 200}};
  for (const std::string program : {"tensors", "autograd", "custom_relu"}) {
    for (const edp::MlpShape& s : shapes) {
      auto g = gpu();
      const auto tensors = edp::mlp_memory_computed(program, s);
      {
        auto w = edp::make_mlp_step(program, *g, edp::make_initial_data(s, 1, 0.1), 1e-3f);
        w->step();
        w->step();
        g->synchronize();
      }
      const double high_water = std::stod(g->describe().at("pool_bytes_high_water"));
      // 1024 doubles: kReduceMaxBlocks of workloads/cuda/kernels.h.
      const double estimate = edp::mlp_memory_total(tensors) + 1024 * sizeof(double) +
                              512.0 * static_cast<double>(tensors.size());
      INFO(program << " " << s.n << "x" << s.d_in << "x" << s.h << "x" << s.d_out << ": high-water "
                   << high_water << " B, estimate " << estimate << " B (" << estimate / high_water
                   << "x)");
      WARN(program << " " << s.n << "x" << s.d_in << "x" << s.h << "x" << s.d_out << " high_water="
                   << high_water << " estimate=" << estimate << " ratio=" << estimate / high_water);
      CHECK(estimate >= high_water);
      CHECK(estimate <= 1.1 * high_water);
    }
  }
}
