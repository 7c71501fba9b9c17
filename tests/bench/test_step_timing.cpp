// bench/protocol/step_timing.h: the one way the engine times steps outside a window.
#include <catch2/catch.hpp>

#include "bench/protocol/step_timing.h"
#include "protocol_fixture.h"
#include "workloads/counting_backend.h"
#include "workloads/reference_backend.h"

using namespace edp;
using namespace edp::testing;

TEST_CASE("step timing: steps between two synchronisations, the set-up synchronised too",
          "[bench][timing]") {
  auto ref = make_reference_backend();
  CountingBackend be(*ref);
  const bench::Part part = sleep_part("sleep", {4});
  bench::TimedSetup setup = bench::make_timed(part, be);
  REQUIRE(setup.workload);
  CHECK(setup.setup_s >= 0);
  const int64_t syncs0 = be.counts().synchronize;
  CHECK(syncs0 == 2);  // before (queued work is not the set-up's) and after make

  const bench::StepTiming t = bench::time_steps(*setup.workload, 5);
  CHECK(t.steps == 5);
  CHECK(t.elapsed_s >= 5 * 0.004);  // a lower bound only: sleeps overshoot, never undershoot
  CHECK(t.per_step_s() == Approx(t.elapsed_s / 5));
  CHECK(be.counts().synchronize == syncs0 + 2);  // one before, one after: not per step

  const bench::StepTiming f = bench::time_steps_for(*setup.workload, 0.03);
  CHECK(f.elapsed_s >= 0.03);
  CHECK(f.steps >= 1);
  CHECK(f.steps <= 8);                                          // 4 ms steps: about 8 reach 30 ms
  CHECK(be.counts().synchronize == syncs0 + 3 + f.steps);       // one before, then one per step
  CHECK(bench::time_steps_for(*setup.workload, 0).steps == 1);  // always at least one
}
