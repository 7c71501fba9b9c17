// The three MLP programs: same trajectory, CPU against the reference oracle,
// and the numerical behaviour of the shipped configs.
#include <catch2/catch.hpp>

#include <cmath>

#include "bench/studies/config_schema.h"
#include "support/backends.h"
#include "support/tolerance.h"
#include "workloads/cpu_backend.h"
#include "workloads/mlp.h"
#include "workloads/reference_backend.h"

using edp::testing::cpu2;
using namespace edp;

namespace {

std::vector<double> trajectory(Backend& be, const std::string& workload, const MlpData& init,
                               float lr, int iterations) {
  auto mlp = make_mlp_workload(workload, be, init, lr);
  std::vector<double> loss;
  for (int i = 0; i < iterations; ++i) {
    mlp->step();
    loss.push_back(be.read_scalar(mlp->loss()));
  }
  return loss;
}

const MlpShape kTiny{8, 40, 12, 6};

}  // namespace

TEST_CASE("the three workloads follow the same loss trajectory on one backend", "[workloads]") {
  const MlpData init = make_initial_data(kTiny, 42, 0.5);
  for (auto make : {+[] { return make_reference_backend(); }, +[] { return cpu2(); }}) {
    auto be = make();
    SECTION("backend " + be->name()) {
      const auto t = trajectory(*be, "tensors", init, 1e-3f, 20);
      const auto a = trajectory(*be, "autograd", init, 1e-3f, 20);
      const auto c = trajectory(*be, "custom_relu", init, 1e-3f, 20);
      for (size_t i = 0; i < t.size(); ++i) {
        INFO("iteration " << i);
        // Same math, different fusion: only float32 rounding differs.
        CHECK(a[i] == Approx(t[i]).epsilon(1e-4));
        CHECK(c[i] == Approx(a[i]).epsilon(1e-6));
      }
      CHECK(t.back() < t.front());
    }
  }
}

TEST_CASE("cpu backend matches the reference backend on a small problem", "[workloads]") {
  const MlpShape shape{16, 300, 24, 10};
  const MlpData init = make_initial_data(shape, 3, 0.1);
  for (const std::string w : {"tensors", "autograd", "custom_relu"}) {
    SECTION(w) {
      auto ref = make_reference_backend();
      auto cpu = cpu2();
      const auto lr = trajectory(*ref, w, init, 1e-2f, 10);
      const auto lc = trajectory(*cpu, w, init, 1e-2f, 10);
      for (size_t i = 0; i < lr.size(); ++i) CHECK(lc[i] == Approx(lr[i]).epsilon(1e-4));
    }
  }
}

TEST_CASE("cpu backend ops match the reference oracle within float32 accumulation bounds",
          "[workloads][cpu]") {
  auto ref = make_reference_backend();
  auto cpu = cpu2();
  const int64_t m = 33, k = 517, n = 45;  // odd sizes: no tile fits exactly
  const MlpData d = make_initial_data({m, k, n, 1}, 5, 1.0);
  auto up = [](Backend& be, const std::vector<float>& v, int64_t r, int64_t c) {
    Tensor t = be.empty(r, c);
    be.upload(v.data(), t);
    return t;
  };
  auto down = [](Backend& be, const Tensor& t) {
    std::vector<float> v(static_cast<size_t>(t.numel()));
    be.download(t, v.data());
    return v;
  };
  // x: m x k, w1: k x n. Each C element sums k products of unit normals:
  // |C| ~ sqrt(k), sum|a b| ~ 0.64 k, so the error bound relative to |C| is
  // about sqrt(k) * eps * 0.64 k / sqrt(k) -> use atol = 4 sqrt(k) eps sqrt(k).
  const double atol = 4.0 * k * testing::kFloatEps;
  for (Trans ta : {Trans::N, Trans::T})
    for (Trans tb : {Trans::N, Trans::T}) {
      DYNAMIC_SECTION("gemm ta=" << int(ta) << " tb=" << int(tb)) {
        const int64_t ar = ta == Trans::N ? m : k, ac = ta == Trans::N ? k : m;
        const int64_t br = tb == Trans::N ? k : n, bc = tb == Trans::N ? n : k;
        std::vector<float> c0(static_cast<size_t>(m * n), 1.0f);
        std::vector<std::vector<float>> out;
        for (Backend* be : {ref.get(), cpu.get()}) {
          Tensor a = up(*be, d.x, ar, ac), b = up(*be, d.w1, br, bc), c = up(*be, c0, m, n);
          be->gemm(ta, tb, 0.5f, a, b, 1.0f, c);
          out.push_back(down(*be, c));
        }
        CHECK(testing::worst_ratio(out[1], out[0], 1e-5, atol) <= 1.0);
      }
    }
  SECTION("element-wise ops and reductions") {
    const int64_t r = 300, c = 257;  // 77100 elements: above the parallel threshold
    // Half unit normals from their own stream (d.x holds only m * k values:
    // reading r * c / 2 of them ran past its end into heap garbage, NaN at times).
    const MlpData e = make_initial_data({1, r * c / 2, 1, 1}, 6, 1.0);
    std::vector<float> a = e.x, b(a.rbegin(), a.rend());
    a.resize(static_cast<size_t>(r * c), 0.25f);
    b.resize(static_cast<size_t>(r * c), -0.5f);
    std::vector<std::vector<float>> res[2];
    double sums[2][2];
    int i = 0;
    for (Backend* be : {ref.get(), cpu.get()}) {
      Tensor ta = up(*be, a, r, c), tb = up(*be, b, r, c), o = be->empty(r, c), s = be->empty(1, 1);
      be->relu(ta, o);
      res[i].push_back(down(*be, o));
      be->relu_backward(tb, ta, o);
      res[i].push_back(down(*be, o));
      be->sub(ta, tb, o);
      res[i].push_back(down(*be, o));
      be->mul(ta, tb, o);
      res[i].push_back(down(*be, o));
      be->scale(ta, -3.0f, o);
      res[i].push_back(down(*be, o));
      be->square(ta, o);
      res[i].push_back(down(*be, o));
      be->copy(tb, o);
      be->axpy(0.5f, ta, o);
      res[i].push_back(down(*be, o));
      be->sum(ta, s);
      sums[i][0] = be->read_scalar(s);
      be->sub_square_sum(ta, tb, o, s);
      sums[i][1] = be->read_scalar(s);
      res[i].push_back(down(*be, o));
      ++i;
    }
    for (size_t op = 0; op < res[0].size(); ++op) {
      INFO("element-wise op #" << op);
      CHECK(res[1][op] == res[0][op]);  // one rounding each: bit-identical
    }
    // Both accumulate in double; only the summation order differs.
    CHECK(sums[1][0] == Approx(sums[0][0]).epsilon(1e-6));
    CHECK(sums[1][1] == Approx(sums[0][1]).epsilon(1e-6));
  }
}

TEST_CASE("under default.yaml the loss falls at every size in the first 50 iterations",
          "[workloads][config][slow]") {
  const auto cfg = bench::load_config(EDPBENCH_CONFIGS "/default.yaml");
  CpuOptions o;
  o.gemm = "eigen";
  auto be = make_cpu_backend(o);
  for (const auto& s : cfg.sizes) {
    DYNAMIC_SECTION("size " << s.name) {
      const MlpData init = make_initial_data({s.n, s.d_in, s.h, s.d_out}, cfg.seed, cfg.init_scale);
      const auto loss = trajectory(*be, "tensors", init, static_cast<float>(cfg.learning_rate), 50);
      for (size_t i = 1; i < loss.size(); ++i) {
        INFO("iteration " << i << ": " << loss[i - 1] << " -> " << loss[i]);
        REQUIRE(std::isfinite(loss[i]));
        REQUIRE(loss[i] < loss[i - 1]);
      }
    }
  }
}

TEST_CASE("under paper.yaml the loss diverges to inf or NaN", "[workloads][config]") {
  const auto cfg = bench::load_config(EDPBENCH_CONFIGS "/paper.yaml");
  CpuOptions o;
  o.gemm = "eigen";
  auto be = make_cpu_backend(o);
  const auto& s = cfg.sizes.front();  // small is enough to show it
  const MlpData init = make_initial_data({s.n, s.d_in, s.h, s.d_out}, cfg.seed, cfg.init_scale);
  const auto loss = trajectory(*be, "tensors", init, static_cast<float>(cfg.learning_rate), 20);
  CHECK_FALSE(std::isfinite(loss.back()));
}

TEST_CASE("initial data is deterministic and each tensor has its own stream", "[workloads]") {
  const MlpData a = make_initial_data({4, 10, 3, 2}, 9, 1.0);
  const MlpData b = make_initial_data({4, 10, 3, 2}, 9, 1.0);
  const MlpData c = make_initial_data({4, 10, 5, 2}, 9, 1.0);  // another H
  CHECK(a.w1 == b.w1);
  CHECK(a.x == c.x);  // x does not depend on H
  CHECK(a.x != make_initial_data({4, 10, 3, 2}, 10, 1.0).x);
  double s = 0, s2 = 0;
  const MlpData big = make_initial_data({1, 100000, 1, 1}, 1, 2.0);
  for (float v : big.x) {
    s += v;
    s2 += double(v) * v;
  }
  CHECK(s / 1e5 == Approx(0.0).margin(0.03));
  CHECK(std::sqrt(s2 / 1e5) == Approx(2.0).epsilon(0.01));  // init_scale is the std
}
