// The recommendation across boards and the boards' labels, on the two fixture
// boards (tests/fixtures/report: tx2_sweep, and orin_nx_sweep made from it by
// make_board_fixtures.py).
#include <catch2/catch.hpp>

#include "report/board_choice.h"
#include "report/html_boards.h"
#include "support/fixtures.h"

using edp::testing::kOrinSweep;
using edp::testing::kTx2Sweep;
using namespace edp::report;

namespace {

const BoardChoice& find_option(const std::vector<BoardChoice>& v, const std::string& w,
                               const std::string& s) {
  for (const auto& c : v)
    if (c.workload == w && c.size == s) return c;
  FAIL("no choice for " << w << "/" << s);
  throw;
}
}  // namespace

TEST_CASE("board labels: the model, then the mode, then the directory") {
  const LoadedSweep tx2 = load_sweep(kTx2Sweep), orin = load_sweep(kOrinSweep);
  CHECK(board_labels({tx2, orin}) == std::vector<std::string>{"Jetson TX2", "Jetson Orin NX"});
  // One board twice at one mode: the directory names tell them apart.
  CHECK(board_labels({tx2, tx2}) ==
        std::vector<std::string>{"Jetson TX2 MAXN", "Jetson TX2 MAXN (tx2_sweep)"});
}

TEST_CASE("recommend_across_boards: lowest objective among choices within the deadline") {
  const std::vector<LoadedSweep> sweeps{load_sweep(kTx2Sweep), load_sweep(kOrinSweep)};
  RecommendOptions opt;
  opt.objective = Objective::energy;
  opt.deadline_s = 2.0;
  const auto choices = recommend_across_boards(sweeps, opt);
  REQUIRE(choices.size() == 9);
  // autograd/medium: TX2 GPU 5.56 s and every CPU miss 2 s; Orin NX GPU 1.83 s.
  const BoardChoice& am = find_option(choices, "autograd", "medium");
  REQUIRE(am.best);
  CHECK(am.best->board == "Jetson Orin NX");
  CHECK(am.best->device == "gpu");
  CHECK(am.best->point == "15W");
  CHECK_FALSE(am.runner_up);
  CHECK(board_choice_sentence(am, opt).rfind(
            "for autograd/medium under a 2 s deadline, the lowest energy is Jetson Orin NX GPU "
            "at 15W (",
            0) == 0);
  CHECK(board_choice_sentence(am, opt).find("no other board meets the deadline") !=
        std::string::npos);
  // tensors/small: both GPUs qualify; the TX2's is the runner-up.
  const BoardChoice& ts = find_option(choices, "tensors", "small");
  REQUIRE(ts.runner_up);
  CHECK(ts.runner_up->board == "Jetson TX2");
  CHECK(ts.runner_up->value > ts.best->value);
  // Large: nothing within 2 s; the fastest is named.
  const BoardChoice& tl = find_option(choices, "tensors", "large");
  CHECK_FALSE(tl.best);
  CHECK(board_choice_sentence(tl, opt).find("no board meets it (the fastest is Jetson Orin NX "
                                            "GPU at 15W") != std::string::npos);
  // By time without a deadline the best is the fastest.
  opt.objective = Objective::time;
  opt.deadline_s.reset();
  const auto by_time = recommend_across_boards(sweeps, opt);
  CHECK(find_option(by_time, "tensors", "large").best->board == "Jetson Orin NX");
}

TEST_CASE("cross-board page: boards, differences, recommendation, log-scale figures") {
  RecommendOptions opt;
  opt.objective = Objective::energy;
  const std::string html =
      render_boards_report({load_sweep(kTx2Sweep), load_sweep(kOrinSweep)}, opt);
  CHECK(html.find("<h2>Boards</h2>") != std::string::npos);
  CHECK(html.find("nvpmodel mode: Jetson TX2 MAXN; Jetson Orin NX 15W") != std::string::npos);
  CHECK(html.find("Recommendation across boards") != std::string::npos);
  size_t charts = 0, logs = 0;
  for (size_t at = 0; (at = html.find("class=\"chart\"", at)) != std::string::npos; ++at) ++charts;
  for (size_t at = 0; (at = html.find("(log scale)</title>", at)) != std::string::npos; ++at)
    ++logs;
  CHECK(charts == 3);
  CHECK(logs == 3);
  CHECK(html.find("<h2>Context: Jetson TX2</h2>") != std::string::npos);
  CHECK(html.find("<h2>Context: Jetson Orin NX</h2>") != std::string::npos);
  CHECK(html.find("src=\"http") == std::string::npos);
  CHECK(html.find("href=\"http") == std::string::npos);
}

TEST_CASE("recommend_across_boards: a winner only where compare's test finds one, else a tie") {
  // The TX2 sweep against itself: equal runs, p = 1. Before issue 35 the
  // first was "the lowest energy", the copy "1x more".
  const LoadedSweep tx2 = load_sweep(kTx2Sweep);
  RecommendOptions opt;
  opt.objective = Objective::energy;
  const auto same = recommend_across_boards({tx2, tx2}, opt);
  const BoardChoice& ts = find_option(same, "tensors", "small");
  REQUIRE(ts.runner_up);
  REQUIRE(ts.versus_runner_up);
  CHECK_FALSE(ts.versus_runner_up->significant);
  const std::string tie = board_choice_sentence(ts, opt);
  INFO(tie);
  CHECK(tie.find("the boards tie on energy: Jetson TX2 MAXN GPU") != std::string::npos);
  CHECK(tie.find("(p=1.000 n=10+10, as compare tests)") != std::string::npos);
  CHECK(tie.find("lowest") == std::string::npos);

  // TX2 against Orin NX: compare's p and n for tensors/small/gpu's energy.
  const LoadedSweep orin = load_sweep(kOrinSweep);
  const auto boards = recommend_across_boards({tx2, orin}, opt);
  const BoardChoice& diff = find_option(boards, "tensors", "small");
  REQUIRE(diff.versus_runner_up);
  const Comparison cmp = compare_sweeps({tx2, orin}, CompareOptions{});
  bool seen = false;
  for (const auto& cc : cmp.configs)
    if (cc.label == "tensors/small/gpu") {
      const auto& d = cc.deltas[1][0];  // energy, Orin NX against TX2
      REQUIRE(d.test);
      CHECK(d.test->p == Approx(diff.versus_runner_up->test->p));
      CHECK(d.significant == diff.versus_runner_up->significant);
      seen = true;
    }
  CHECK(seen);
  CHECK(diff.versus_runner_up->significant);
  CHECK(board_choice_sentence(diff, opt).find("the lowest energy is Jetson Orin NX GPU") !=
        std::string::npos);
}

TEST_CASE("cross-board page: what differs is compare's list, the compared setting included") {
  RecommendOptions opt;
  const std::string html =
      render_boards_report({load_sweep(kTx2Sweep), load_sweep(kOrinSweep)}, opt);
  // Before issue 35 the threads (6 against 8) were missing: compare prints them.
  CHECK(html.find("compared setting: threads: Jetson TX2 0/1/6; Jetson Orin NX 0/8") !=
        std::string::npos);
  CHECK(html.find("L4T: Jetson TX2 R32.7.4; Jetson Orin NX R35.4.1") != std::string::npos);
}

TEST_CASE("recommend_across_boards: zero or a negative value is no measurement") {
  // results.csv is read from disk: an energy of -1 J won "the lowest energy".
  std::vector<LoadedSweep> sweeps{load_sweep(kTx2Sweep), load_sweep(kOrinSweep)};
  CsvTable& t = sweeps[1].data.results;
  const int energy = t.column("energy_j_mean");
  REQUIRE(energy >= 0);
  for (auto& row : t.rows) row[static_cast<size_t>(energy)] = "-1";
  RecommendOptions opt;
  opt.objective = Objective::energy;
  for (const auto& c : recommend_across_boards(sweeps, opt)) {
    INFO(c.workload << "/" << c.size);
    REQUIRE(c.best);
    CHECK(c.best->board == "Jetson TX2");
    CHECK(c.best->value > 0);
  }
}

TEST_CASE("board choice: no ratio beyond a double") {
  std::vector<LoadedSweep> sweeps{load_sweep(kTx2Sweep), load_sweep(kOrinSweep)};
  for (size_t b = 0; b < 2; ++b) {
    CsvTable& t = sweeps[b].data.results;
    const int energy = t.column("energy_j_mean");
    REQUIRE(energy >= 0);
    for (auto& row : t.rows) row[static_cast<size_t>(energy)] = b == 0 ? "1e300" : "1e-300";
  }
  RecommendOptions opt;
  opt.objective = Objective::energy;
  for (const auto& c : recommend_across_boards(sweeps, opt)) {
    const std::string s = board_choice_sentence(c, opt);
    INFO(s);
    CHECK(s.find("inf") == std::string::npos);
  }
}
