// The cpu backend's own GEMM threading (workloads/cpu_gemm.h): the split plan
// for the MLP's shapes, and every split, on every path and several thread
// counts, against the double-accumulating reference.
#include <catch2/catch.hpp>

#include <cmath>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "support/tolerance.h"
#include "workloads/cpu_backend.h"
#include "workloads/cpu_gemm.h"
#include "workloads/mlp.h"
#include "workloads/reference_backend.h"

using namespace edp;
using edp::cpu::SplitDim;

namespace {

std::vector<std::string> paths() { return cpu_gemm_paths(); }

std::unique_ptr<Backend> cpu_backend(int threads, const std::string& path) {
  CpuOptions o;
  o.threads = threads;
  o.gemm = path;
  return make_cpu_backend(o);
}

Tensor up(Backend& be, const std::vector<float>& v, int64_t r, int64_t c) {
  Tensor t = be.empty(r, c);
  be.upload(v.data(), t);
  return t;
}

std::vector<float> down(Backend& be, const Tensor& t) {
  std::vector<float> v(static_cast<size_t>(t.numel()));
  be.download(t, v.data());
  return v;
}

// Unit normals for a (the x of {m, k, n, 1}: m*k values) and b (its w1: k*n),
// made once per shape: Catch2 runs the test case again for each section, and
// drawing them again for every call was most of these tests' time (Box-Muller's
// log and sincos; 43% natively, more under qemu's soft libm).
const MlpData& operands(int64_t m, int64_t n, int64_t k) {
  static std::map<std::tuple<int64_t, int64_t, int64_t>, MlpData> made;
  auto it = made.find({m, n, k});
  if (it == made.end())
    it = made.emplace(std::make_tuple(m, n, k), make_initial_data({m, k, n, 1}, 11, 1.0)).first;
  return it->second;
}

// c = alpha op(a) op(b) + beta c0 on `be`, with a, b unit normals.
std::vector<float> run_gemm(Backend& be, Trans ta, Trans tb, int64_t m, int64_t n, int64_t k,
                            float beta, const std::vector<float>& c0) {
  const MlpData& d = operands(m, n, k);
  Tensor a = up(be, d.x, ta == Trans::N ? m : k, ta == Trans::N ? k : m);
  Tensor b = up(be, d.w1, tb == Trans::N ? k : n, tb == Trans::N ? n : k);
  Tensor c = up(be, c0, m, n);
  be.gemm(ta, tb, 0.5f, a, b, beta, c);
  return down(be, c);
}

}  // namespace

TEST_CASE("gemm split plan: K for the long forward product, M or N otherwise",
          "[workloads][cpu][gemm]") {
  // The MLP's forward x w1 and backward x^T grad_h at the paper's sizes.
  CHECK(cpu::plan_gemm_split(64, 100, 15000, 2).dim == SplitDim::K);
  CHECK(cpu::plan_gemm_split(15000, 100, 64, 2).dim == SplitDim::M);
  CHECK(cpu::plan_gemm_split(192, 300, 20000, 2).dim == SplitDim::K);
  CHECK(cpu::plan_gemm_split(20000, 300, 192, 2).dim == SplitDim::M);
  CHECK(cpu::plan_gemm_split(384, 600, 40000, 2).dim == SplitDim::K);
  CHECK(cpu::plan_gemm_split(192, 200, 300, 2).dim == SplitDim::N);    // medium y_pred
  CHECK(cpu::plan_gemm_split(64, 150, 100, 2).dim == SplitDim::None);  // small: too little work
  CHECK(cpu::plan_gemm_split(64, 100, 15000, 1).dim == SplitDim::None);
  // Batch size 1: few flops but megabytes to move, so still split.
  CHECK(cpu::plan_gemm_split(15000, 100, 1, 2).dim == SplitDim::M);   // x^T grad_h: writes 6 MB
  CHECK(cpu::plan_gemm_split(1, 100, 15000, 2).dim == SplitDim::K);   // x w1: reads 6 MB
  CHECK(cpu::plan_gemm_split(1, 150, 100, 2).dim == SplitDim::None);  // h w2: 60 KB
  // kPartsPerThread parts per thread where the shape allows.
  CHECK(cpu::plan_gemm_split(64, 100, 15000, 2).parts == 2 * cpu::kPartsPerThread);
  CHECK(cpu::plan_gemm_split(64, 100, 15000, 3).parts == 3 * cpu::kPartsPerThread);
  CHECK(cpu::plan_gemm_split(15000, 100, 64, 2).parts == 2 * cpu::kPartsPerThread);
  CHECK(cpu::plan_gemm_split(20000, 300, 192, 2).parts == 2 * cpu::kPartsPerThread);
  // An M or N part packs the whole other operand again: parts of 512 rows or
  // columns at least where every thread still gets one (issue 38: 8 parts of
  // 1024^3 took 10-13% more CPU time than 2).
  CHECK(cpu::plan_gemm_split(1024, 1024, 1024, 2).parts == 2);
  CHECK(cpu::plan_gemm_split(2048, 2048, 2048, 2).parts == 4);
  CHECK(cpu::plan_gemm_split(4096, 4096, 4096, 2).parts == 2 * cpu::kPartsPerThread);
  CHECK(cpu::plan_gemm_split(256, 256, 256, 2).parts == 2);
  CHECK(cpu::plan_gemm_split(192, 200, 300, 2).parts == 2);    // medium y_pred
  CHECK(cpu::plan_gemm_split(256, 256, 256, 4).parts == 4);    // one per thread still
  CHECK(cpu::plan_gemm_split(48, 40, 1200, 2).parts == 2);     // K: slices of 512 at least
  CHECK(cpu::plan_gemm_split(40, 2000, 60, 64).parts == 62);   // N: 2000 / 32 pieces at most
  CHECK(cpu::plan_gemm_split(2000, 40, 60, 100).parts == 62);  // M: 2000 / 32
}

TEST_CASE("gemm part ranges cover the dimension once, starts aligned", "[workloads][cpu][gemm]") {
  for (int64_t total : {1, 15, 16, 17, 100, 15000}) {
    for (int parts : {1, 2, 3, 7}) {
      int64_t next = 0;
      for (int p = 0; p < parts; ++p) {
        const auto r = cpu::part_range(total, parts, p, 16);
        INFO("total " << total << " parts " << parts << " part " << p);
        CHECK(r.begin == next);
        CHECK(r.end >= r.begin);
        if (r.begin < total) CHECK(r.begin % 16 == 0);
        next = r.end;
      }
      CHECK(next == total);
    }
  }
}

// The next two cases loop instead of opening a Catch2 section per
// combination (a section runs the whole case again: 360 runs, each walking
// every loop, were most of their time under qemu); INFO names the combination
// a failed check was in. The reference product is made once per shape,
// transposes and beta, and compared with every path and thread count.
TEST_CASE("split gemm matches the reference on every path, thread count and transpose",
          "[workloads][cpu][gemm]") {
  auto ref = make_reference_backend();
  struct Case {
    const char* name;
    int64_t m, n, k;
  };
  // Odd sizes, so no part fits a tile exactly; each is big enough to split.
  const Case cases[] = {
      {"K split", 37, 45, 3001}, {"M split", 2003, 41, 35}, {"N split", 41, 2003, 35}};
  struct Tested {
    std::string path;
    int threads;
    std::unique_ptr<Backend> be;
  };
  std::vector<Tested> tested;
  for (const std::string& path : paths())
    for (int threads : {2, 3}) tested.push_back({path, threads, cpu_backend(threads, path)});
  for (const Case& cs : cases) {
    INFO(cs.name << " " << cs.m << " x " << cs.n << " x " << cs.k);
    for (const Tested& t : tested) {
      INFO(t.path << " threads " << t.threads);
      const auto split = cpu::plan_gemm_split(cs.m, cs.n, cs.k, t.threads);
      CHECK(split.parts >= t.threads);
      CHECK(cpu::to_string(split.dim) == std::string(1, char(cs.name[0] + 32)));
    }
    for (Trans ta : {Trans::N, Trans::T})
      for (Trans tb : {Trans::N, Trans::T})
        for (float beta : {0.0f, 1.0f, -0.5f}) {
          INFO("ta=" << int(ta) << " tb=" << int(tb) << " beta " << beta);
          // C starts as NaN when beta is 0: it must not be read.
          std::vector<float> c0(static_cast<size_t>(cs.m * cs.n), beta == 0.0f ? NAN : 1.5f);
          const auto want = run_gemm(*ref, ta, tb, cs.m, cs.n, cs.k, beta, c0);
          // |C| ~ 0.5 sqrt(k); float32 error ~ sqrt(k) eps per |a b| (tolerance.h).
          const double atol = 4.0 * double(cs.k) * testing::kFloatEps;
          for (const Tested& t : tested) {
            INFO(t.path << " threads " << t.threads);
            const auto got = run_gemm(*t.be, ta, tb, cs.m, cs.n, cs.k, beta, c0);
            CHECK(testing::worst_ratio(got, want, 1e-5, atol) <= 1.0);
            // Deterministic: the same thread count gives the same bits.
            CHECK(run_gemm(*t.be, ta, tb, cs.m, cs.n, cs.k, beta, c0) == got);
          }
        }
  }
}

TEST_CASE("small-k gemm (rank-k updates, the weight gradients at N <= 4) matches the reference",
          "[workloads][cpu][gemm]") {
  // k = 1..4 with op(B) = B on the Eigen path take the rank-k kernel, k = 5,
  // op(B) = B^T and the OpenBLAS path the GEMM library: all must agree with
  // the reference, for every beta (C starts as NaN for beta = 0 and must not
  // be read), split over a team along M (m = 15000, the weight gradient's
  // rows) or N, or not split.
  // n = 37 except for m = 7, n = 40000 (split along N, the parts offset
  // into B and C).
  auto ref = make_reference_backend();
  std::vector<std::pair<std::string, std::unique_ptr<Backend>>> tested;
  for (const std::string& path : paths()) tested.emplace_back(path, cpu_backend(2, path));
  for (const auto& [m, n] :
       std::vector<std::pair<int64_t, int64_t>>{{7, 37}, {15000, 37}, {7, 40000}})
    for (int64_t k : {1, 2, 3, 4, 5})
      for (Trans ta : {Trans::N, Trans::T})
        for (Trans tb : {Trans::N, Trans::T})
          for (float beta : {0.0f, 1.0f, -0.5f}) {
            INFO("m " << m << " n " << n << " k " << k << " ta=" << int(ta) << " tb=" << int(tb)
                      << " beta " << beta);
            std::vector<float> c0(static_cast<size_t>(m * n), beta == 0.0f ? NAN : 1.5f);
            const auto want = run_gemm(*ref, ta, tb, m, n, k, beta, c0);
            const double atol = 4.0 * double(k + 1) * testing::kFloatEps;
            for (const auto& [path, be] : tested) {
              INFO(path);
              const auto got = run_gemm(*be, ta, tb, m, n, k, beta, c0);
              CHECK(testing::worst_ratio(got, want, 1e-5, atol) <= 1.0);
            }
          }
}

TEST_CASE("the three workloads follow the reference where every big GEMM is split",
          "[workloads][cpu][gemm]") {
  // x w1: 32 x 40 x 4000 (K split); x^T grad_h: 4000 x 40 x 32 (M split).
  const MlpShape shape{32, 4000, 40, 10};
  REQUIRE(cpu::plan_gemm_split(32, 40, 4000, 2).dim == SplitDim::K);
  REQUIRE(cpu::plan_gemm_split(4000, 40, 32, 2).dim == SplitDim::M);
  const MlpData init = make_initial_data(shape, 3, 0.05);
  constexpr int kSteps = 8;
  for (const std::string w : {"tensors", "autograd", "custom_relu"}) {
    INFO(w);
    // The reference trajectory once per workload, against every path.
    auto ref = make_reference_backend();
    auto a = make_mlp_workload(w, *ref, init, 1e-4f);
    std::vector<double> want;
    for (int i = 0; i < kSteps; ++i) {
      a->step();
      want.push_back(ref->read_scalar(a->loss()));
    }
    CHECK(want.back() < want.front());  // the loss falls: the steps mean something
    for (const std::string& path : paths()) {
      INFO("on " << path);
      auto cpu = cpu_backend(2, path);
      auto b = make_mlp_workload(w, *cpu, init, 1e-4f);
      for (int i = 0; i < kSteps; ++i) {
        b->step();
        INFO("iteration " << i);
        CHECK(cpu->read_scalar(b->loss()) == Approx(want[static_cast<size_t>(i)]).epsilon(1e-4));
      }
    }
  }
}
