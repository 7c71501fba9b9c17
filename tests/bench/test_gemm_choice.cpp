// `gemm: auto`: the rule on crafted timings, and the chooser (protocol and
// per-sweep cache) with a deterministic fake timer on a fake two-path backend.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "bench/protocol/gemm_choice.h"
#include "workloads/mlp_step.h"
#include "workloads/reference_backend.h"

using namespace edp;
using namespace edp::bench;

namespace {

PathTimings timings(const std::string& path, std::vector<double> ms) {
  PathTimings t;
  t.path = path;
  t.ms = std::move(ms);
  return t;
}

PathTimings failed(const std::string& path, const std::string& error) {
  PathTimings t;
  t.path = path;
  t.error = error;
  return t;
}

// The reference backend with two interchangeable GEMM "paths" and the
// describe() facts the chooser keys on.
class TwoPathBackend final : public Backend {
 public:
  explicit TwoPathBackend(int threads) : threads_(threads) {}
  std::string name() const override { return "cpu"; }
  std::map<std::string, std::string> describe() const override {
    return {{"threads", std::to_string(threads_)},
            {"cpus", "0,1"},
            {"gemm_path", path_},
            {"gemm_choice", path_ + " (" + why_ + ")"}};
  }
  std::vector<std::string> gemm_paths() const override { return {"eigen", "openblas"}; }
  void set_gemm_path(const std::string& path, const std::string& why) override {
    path_ = path;
    why_ = why;
  }
  const std::string& path() const { return path_; }
  const std::string& why() const { return why_; }

  Tensor empty(int64_t r, int64_t c) override { return ref_->empty(r, c); }
  void upload(const float* h, Tensor& t) override { ref_->upload(h, t); }
  void download(const Tensor& t, float* h) override { ref_->download(t, h); }
  void fill(Tensor& t, float v) override { ref_->fill(t, v); }
  void copy(const Tensor& s, Tensor& d) override { ref_->copy(s, d); }
  void add(const Tensor& a, const Tensor& b, Tensor& o) override { ref_->add(a, b, o); }
  void sigmoid(const Tensor& x, Tensor& o) override { ref_->sigmoid(x, o); }
  void tanh(const Tensor& x, Tensor& o) override { ref_->tanh(x, o); }
  void gemm(Trans ta, Trans tb, float alpha, const Tensor& a, const Tensor& b, float beta,
            Tensor& c) override {
    ref_->gemm(ta, tb, alpha, a, b, beta, c);
  }
  void axpy(float alpha, const Tensor& x, Tensor& y) override { ref_->axpy(alpha, x, y); }
  void relu(const Tensor& x, Tensor& y) override { ref_->relu(x, y); }
  void relu_backward(const Tensor& gy, const Tensor& x, Tensor& gx) override {
    ref_->relu_backward(gy, x, gx);
  }
  void sub(const Tensor& a, const Tensor& b, Tensor& o) override { ref_->sub(a, b, o); }
  void mul(const Tensor& a, const Tensor& b, Tensor& o) override { ref_->mul(a, b, o); }
  void scale(const Tensor& x, float a, Tensor& o) override { ref_->scale(x, a, o); }
  void square(const Tensor& x, Tensor& o) override { ref_->square(x, o); }
  void broadcast(const Tensor& s, Tensor& o) override { ref_->broadcast(s, o); }
  void sum(const Tensor& x, Tensor& o) override { ref_->sum(x, o); }
  void sub_square_sum(const Tensor& a, const Tensor& b, Tensor& d, Tensor& o) override {
    ref_->sub_square_sum(a, b, d, o);
  }
  float read_scalar(const Tensor& s) override { return ref_->read_scalar(s); }
  void synchronize() override {}

 private:
  std::unique_ptr<Backend> ref_ = make_reference_backend();
  int threads_;
  std::string path_ = "eigen", why_ = "not yet measured";
};

// A fake step timer: runs the step (so the workload really moves) and
// returns a fixed time per path, with a deterministic wobble; the paths it
// saw, in order, go to `seen`.
struct FakeTimer {
  std::map<std::string, double> ms;
  std::vector<std::string>* seen;
  std::string fails;  // this path throws
  double operator()(Backend& be, Workload& wl) const {
    const std::string path = static_cast<TwoPathBackend&>(be).path();
    seen->push_back(path);
    if (path == fails) throw std::runtime_error(path + " broke");
    wl.step();
    return ms.at(path) * (1.0 + 0.01 * double(seen->size() % 3));
  }
};

const MlpShape kShape{4, 16, 6, 3};

}  // namespace

TEST_CASE("gemm auto rule: a clear win takes the faster median", "[bench][gemm]") {
  const auto d = decide_gemm_path({timings("eigen", {3.0, 3.1, 2.9, 3.0, 3.2, 3.0, 2.95}),
                                   timings("openblas", {2.0, 2.1, 1.9, 2.0, 2.2, 9.0, 2.0})});
  CHECK(d.path == "openblas");
  CHECK(d.rule == GemmRule::Measured);
  CHECK_THAT(d.why, Catch::StartsWith("auto: measured"));
  // Every sample is recorded, the outlier too.
  CHECK_THAT(d.why, Catch::Contains("openblas median 2 ms"));
  CHECK_THAT(d.why, Catch::Contains("[2 2.1 1.9 2 2.2 9 2]"));
  CHECK_THAT(d.why, Catch::Contains("eigen median 3 ms"));

  // The first path wins the same way.
  const auto e =
      decide_gemm_path({timings("eigen", {1.0, 1.0, 1.0}), timings("openblas", {1.5, 1.5, 1.5})});
  CHECK(e.path == "eigen");
  CHECK(e.rule == GemmRule::Measured);
}

TEST_CASE("gemm auto rule: a difference within the noise falls back to the fixed rule",
          "[bench][gemm]") {
  SECTION("below the minimum gain, however steady") {
    const auto d =
        decide_gemm_path({timings("eigen", {3.0, 3.0, 3.0}), timings("openblas", {2.9, 2.9, 2.9})});
    CHECK(d.path == "eigen");
    CHECK(d.rule == GemmRule::TieFixedRule);
    CHECK_THAT(d.why, Catch::StartsWith("auto: tie within the noise: fixed rule"));
  }
  SECTION("above the minimum gain but within the spread of the samples") {
    // Medians 3.0 and 2.7 (10% apart); MADs 0.3 and 0.3.
    const auto d = decide_gemm_path({timings("eigen", {2.7, 3.0, 3.3, 3.0, 2.6}),
                                     timings("openblas", {2.4, 2.7, 3.0, 2.7, 3.1})});
    CHECK(d.path == "eigen");
    CHECK(d.rule == GemmRule::TieFixedRule);
  }
  SECTION("just past the minimum gain with steady samples is a win") {
    const auto d =
        decide_gemm_path({timings("eigen", {3.0, 3.0, 3.0}), timings("openblas", {2.8, 2.8, 2.8})});
    CHECK(d.path == "openblas");
    CHECK(d.rule == GemmRule::Measured);
  }
}

TEST_CASE("gemm auto rule: three paths", "[bench][gemm]") {
  SECTION("a clear win of the last path") {
    const auto d =
        decide_gemm_path({timings("eigen", {3.0, 3.0, 3.0}), timings("openblas", {2.8, 2.8, 2.8}),
                          timings("blis", {2.5, 2.5, 2.5})});
    CHECK(d.path == "blis");
    CHECK(d.rule == GemmRule::Measured);
    CHECK_THAT(d.why, Catch::Contains("; blis median 2.5 ms"));
  }
  SECTION("the two fastest tie: the first listed of them, not the slower first path") {
    // openblas and blis 2.5% apart, both over 30% ahead of eigen.
    const auto d = decide_gemm_path({timings("eigen", {3.0, 3.0, 3.0}),
                                     timings("openblas", {2.05, 2.05, 2.05}),
                                     timings("blis", {2.0, 2.0, 2.0})});
    CHECK(d.path == "openblas");
    CHECK(d.rule == GemmRule::TieFixedRule);
    CHECK_THAT(d.why, Catch::StartsWith("auto: tie within the noise: fixed rule, the first listed "
                                        "of the tied paths (openblas, blis); eigen median 3 ms"));
  }
  SECTION("ties are with the fastest: a path within the noise of it, whatever the others") {
    // eigen ties with blis (4.5% slower); openblas (10% slower) does not,
    // though it is within 5% of eigen.
    const auto d = decide_gemm_path({timings("eigen", {2.09, 2.09}),
                                     timings("openblas", {2.2, 2.2}), timings("blis", {2.0, 2.0})});
    CHECK(d.path == "eigen");
    CHECK_THAT(d.why, Catch::Contains("tied paths (eigen, blis);"));
  }
  SECTION("all three tie: the first") {
    const auto d =
        decide_gemm_path({timings("eigen", {2.02, 2.02}), timings("openblas", {2.01, 2.01}),
                          timings("blis", {2.0, 2.0})});
    CHECK(d.path == "eigen");
    CHECK_THAT(d.why, Catch::Contains("(eigen, openblas, blis)"));
  }
  SECTION("a failed first path is out of the tie") {
    const auto d = decide_gemm_path(
        {failed("eigen", "boom"), timings("openblas", {3.0, 3.0}), timings("blis", {2.0, 2.0})});
    CHECK(d.path == "blis");
    CHECK(d.rule == GemmRule::Measured);
  }
}

TEST_CASE("gemm chooser: the round order is a balanced Latin square", "[bench][gemm]") {
  for (size_t n : {size_t{2}, size_t{3}, size_t{4}}) {
    INFO(n << " paths");
    // Over 2n rounds every path is timed twice in every slot, and (odd n,
    // or 2) each ordered pair, a right before b, twice.
    std::vector<std::vector<int>> in_slot(n, std::vector<int>(n, 0));
    std::vector<std::vector<int>> follows(n, std::vector<int>(n, 0));
    for (int r = 0; r < static_cast<int>(2 * n); ++r) {
      std::vector<int> seen(n, 0);
      for (size_t j = 0; j < n; ++j) {
        const size_t i = round_order(n, r, j);
        REQUIRE(i < n);
        ++seen[i];
        ++in_slot[j][i];
        if (j > 0) ++follows[round_order(n, r, j - 1)][i];
      }
      for (int c : seen) CHECK(c == 1);  // each round times every path once
    }
    for (size_t j = 0; j < n; ++j)
      for (size_t i = 0; i < n; ++i) CHECK(in_slot[j][i] == 2);
    if (n % 2 == 1 || n == 2) {
      for (size_t a = 0; a < n; ++a)
        for (size_t b = 0; b < n; ++b) CHECK(follows[a][b] == (a == b ? 0 : 2));
    }
  }
  // Three paths: A B C, C B A, B C A, A C B, C A B, B A C.
  const std::vector<std::vector<size_t>> want{{0, 1, 2}, {2, 1, 0}, {1, 2, 0},
                                              {0, 2, 1}, {2, 0, 1}, {1, 0, 2}};
  for (int r = 0; r < 6; ++r)
    for (size_t j = 0; j < 3; ++j) CHECK(round_order(3, r, j) == want[static_cast<size_t>(r)][j]);
}

TEST_CASE("gemm auto rule: a failing path is out of the race", "[bench][gemm]") {
  SECTION("the faster-looking path threw") {
    const auto d = decide_gemm_path(
        {timings("eigen", {5.0, 5.0, 5.0}), failed("openblas", "cblas_sgemm: bad ld")});
    CHECK(d.path == "eigen");
    CHECK(d.rule == GemmRule::OnlyWorkingPath);
    CHECK_THAT(d.why, Catch::Contains("openblas failed: cblas_sgemm: bad ld"));
  }
  SECTION("the first path threw") {
    const auto d = decide_gemm_path({failed("eigen", "boom"), timings("openblas", {5.0, 5.0})});
    CHECK(d.path == "openblas");
    CHECK(d.rule == GemmRule::OnlyWorkingPath);
  }
  SECTION("a non-finite or missing sample makes a path unusable") {
    CHECK(decide_gemm_path({timings("eigen", {1.0, NAN, 1.0}), timings("openblas", {9.0})}).path ==
          "openblas");
    CHECK(decide_gemm_path({timings("eigen", {}), timings("openblas", {9.0})}).path == "openblas");
  }
  SECTION("no path worked: the fixed rule, said so") {
    const auto d = decide_gemm_path({failed("eigen", "a"), failed("openblas", "b")});
    CHECK(d.path == "eigen");
    CHECK(d.rule == GemmRule::NoWorkingPath);
  }
}

TEST_CASE("gemm chooser: alternating protocol, one decision per shape, threads and CPUs",
          "[bench][gemm]") {
  std::vector<std::string> seen;
  GemmChooser chooser(FakeTimer{{{"eigen", 4.0}, {"openblas", 2.0}}, &seen, ""});
  const MlpData init = make_initial_data(kShape, 7, 0.5);

  TwoPathBackend be(2);
  auto first = make_mlp_step("tensors", be, init, 1e-3f);
  chooser.choose(be, *first, bench::gemm_shape_key(init.shape));
  CHECK(be.path() == "openblas");
  CHECK_THAT(be.why(), Catch::StartsWith("auto: measured"));
  CHECK(chooser.measured() == 1);
  // One warm-up step per path, then rounds of one step per path in
  // round_order: eigen openblas | eigen openblas | openblas eigen | ...
  REQUIRE(seen.size() == 2 + 2 * GemmChooser::kRounds);
  CHECK(seen[0] == "eigen");
  CHECK(seen[1] == "openblas");
  CHECK(seen[2] == "eigen");
  CHECK(seen[3] == "openblas");
  CHECK(seen[4] == "openblas");
  CHECK(seen[5] == "eigen");

  // The workload is back at its initial weights: its next loss is a fresh
  // workload's first loss.
  first->step();
  auto fresh = make_mlp_step("tensors", be, init, 1e-3f);
  fresh->step();
  CHECK(first->result() == fresh->result());

  SECTION("the other workloads of the shape reuse the decision without measuring") {
    const size_t before = seen.size();
    for (const std::string w : {"autograd", "custom_relu"}) {
      TwoPathBackend other(2);
      auto mlp = make_mlp_step(w, other, init, 1e-3f);
      chooser.choose(other, *mlp, bench::gemm_shape_key(init.shape));
      CHECK(other.path() == "openblas");
      CHECK_THAT(other.why(), Catch::Contains("decided by the first configuration"));
    }
    CHECK(seen.size() == before);
    CHECK(chooser.measured() == 1);
  }
  SECTION("another shape or thread count is measured again") {
    TwoPathBackend one(1);
    auto a = make_mlp_step("tensors", one, init, 1e-3f);
    chooser.choose(one, *a, bench::gemm_shape_key(init.shape));
    const MlpData bigger = make_initial_data({8, 16, 6, 3}, 7, 0.5);
    TwoPathBackend two(2);
    auto b = make_mlp_step("tensors", two, bigger, 1e-3f);
    chooser.choose(two, *b, bench::gemm_shape_key(bigger.shape));
    CHECK(chooser.measured() == 3);
  }
}

TEST_CASE("gemm chooser: a path that throws is recorded and the other is used", "[bench][gemm]") {
  std::vector<std::string> seen;
  GemmChooser chooser(FakeTimer{{{"eigen", 4.0}, {"openblas", 2.0}}, &seen, "openblas"});
  const MlpData init = make_initial_data(kShape, 7, 0.5);
  TwoPathBackend be(2);
  auto mlp = make_mlp_step("autograd", be, init, 1e-3f);
  chooser.choose(be, *mlp, bench::gemm_shape_key(init.shape));
  CHECK(be.path() == "eigen");
  CHECK_THAT(be.why(), Catch::Contains("the only path that worked"));
  CHECK_THAT(be.why(), Catch::Contains("openblas failed: openblas broke"));
  // A failed path is not tried again after its first error.
  CHECK(std::count(seen.begin(), seen.end(), "openblas") == 1);
}
