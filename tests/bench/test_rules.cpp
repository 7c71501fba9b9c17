// The protocol's rules as objects (bench/engine/rules.h, issue 34): the
// window policy's block count is its loop's answer, the confidence rule's
// threshold and reasons, and the stopping criteria with the caps, whose
// reasons are the part's stop_reason.
#include <catch2/catch.hpp>

#include "bench/engine/rules.h"

using namespace edp::bench;

namespace {

// The run's loop over blocks, on a clock that advances block_s a block.
int loop_blocks(const WindowPolicy& p, double block_s) {
  int blocks = 0;
  do ++blocks;
  while (p.another_block(blocks, blocks * block_s));
  return blocks;
}

edp::report::RunRecord run(double time_s) {
  edp::report::RunRecord r;
  r.time_s = time_s;
  return r;
}

}  // namespace

TEST_CASE("window policy: minimum, blocks and what sized the window", "[bench][rules]") {
  const WindowPolicy none(0, false, 0.4);
  CHECK(none.min_window_s() == 0);
  CHECK(none.blocks_for(0.001) == 1);
  CHECK(none.sized_by(1) == "steps");

  const WindowPolicy fixed(1.0, false, 0.4);
  CHECK(fixed.min_window_s() == 1.0);
  CHECK(fixed.sized_by(3) == "min_run_s");
  CHECK(fixed.sized_by(0) == "min_run_s");  // unknown block: the minimum sizes it

  const WindowPolicy automatic(5.0, true, 0.05);  // auto ignores min_run_s
  CHECK(automatic.min_window_s() == Approx(kAutoWindowIntervals * 0.05));
  CHECK(automatic.sized_by(1) == "steps");
  CHECK(automatic.sized_by(0) == "auto");
  CHECK(WindowPolicy(0, true, 0).min_window_s() == 0);  // interval unknown: no minimum

  // blocks_for is the loop's own answer, also where the division rounds.
  for (double block : {0.1, 0.2, 0.3, 0.07, 1e-6, 0.999, 1.0, 2.0})
    for (double min : {0.3, 0.6, 1.0, 0.7}) {
      INFO(min << " s in blocks of " << block << " s");
      const WindowPolicy p(min, false, 0);
      CHECK(p.blocks_for(block) == loop_blocks(p, block));
    }

  WindowPolicy later(1.0, false, 0);
  later.fix_blocks(7);  // the first run's count
  CHECK(later.blocks_for(10.0) == 7);
  CHECK(later.another_block(6, 100.0));
  CHECK_FALSE(later.another_block(7, 0.0));
}

TEST_CASE("confidence rule: fewer than 10 updates, and every reason", "[bench][rules]") {
  ConfidenceEvidence e;
  e.window_s = 0.99;
  e.update_interval_s = 0.1;
  Confidence c = judge_confidence(e);
  CHECK(c.low);
  REQUIRE(c.reasons.size() == 1);
  CHECK(c.reasons[0] ==
        "window 0.99 s spans 9.9 sensor updates of 0.1 s (fewer than 10); raise "
        "power.min_run_s or use auto");
  e.window_s = 1.0;
  CHECK_FALSE(judge_confidence(e).low);
  e.update_interval_s = 0;  // unknown: not judged by length
  e.window_s = 0.001;
  CHECK_FALSE(judge_confidence(e).low);
  e.anomalies = 2;
  e.anomaly = "counter went back";
  e.averaging_uncorrected = true;
  e.period_mismatches = {"VDD_IN: stated averaging period 0.2 s but updates every 0.4 s"};
  c = judge_confidence(e);
  CHECK(c.low);
  REQUIRE(c.reasons.size() == 3);
  CHECK(c.reasons[0].rfind("VDD_IN: stated", 0) == 0);
  CHECK(c.reasons[1] == "2 sensor anomalies (counter went back)");
  CHECK(c.reasons[2].rfind("the sensor's averaging period was not known", 0) == 0);
  ConfidenceEvidence frozen;
  frozen.frozen = true;
  CHECK(judge_confidence(frozen).low);
  CHECK(low_confidence_causes().rfind("shorter than 10 sensor updates", 0) == 0);
}

TEST_CASE("stopping criteria: fixed runs, relative CI, and the caps", "[bench][rules]") {
  std::string why;
  const StopCaps fixed_caps{3, 0, 0};
  auto fixed = stopping_criterion(3, 0);
  CHECK(fixed->name() == "fixed_runs");
  fixed->start();
  for (int n = 0; n < 3; ++n) {
    CHECK_FALSE(runs_done(*fixed, fixed_caps, n, 0, &why));
    fixed->add(run(1));
  }
  CHECK(runs_done(*fixed, fixed_caps, 3, 0, &why));
  CHECK(why == "3 runs");

  auto ci = stopping_criterion(2, 0.05);
  CHECK(ci->name() == "relative_ci");
  ci->start();
  const StopCaps caps{2, 4, 0};
  ci->add(run(1.0));
  CHECK_FALSE(runs_done(*ci, caps, 1, 0, &why));  // under the minimum
  ci->add(run(2.0));
  CHECK_FALSE(runs_done(*ci, caps, 2, 0, &why));  // a wide CI
  ci->add(run(1.5));
  ci->add(run(1.5));
  CHECK(runs_done(*ci, caps, 4, 0, &why));  // the cap ends it
  CHECK(why.rfind("run cap 4 reached with relative CI ", 0) == 0);

  ci->start();
  for (int n = 0; n < 3; ++n) ci->add(run(1.0));
  CHECK(runs_done(*ci, caps, 3, 0, &why));
  CHECK(why == "relative CI 0 < 0.05 after 3 runs");

  ci->start();
  ci->add(run(1.0));
  ci->add(run(3.0));
  CHECK(runs_done(*ci, StopCaps{2, 0, 10}, 2, 12, &why));
  CHECK(why.rfind("time limit 10 s reached after 2 runs, relative CI ", 0) == 0);
}
