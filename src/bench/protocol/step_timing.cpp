// Timing steps outside an energy window (see step_timing.h).
#include "bench/protocol/step_timing.h"

#include "common/elapsed.h"
#include "workloads/step_loop.h"

namespace edp::bench {

TimedSetup make_timed(const Part& part, Backend& be) {
  TimedSetup out;
  be.synchronize();  // work queued before is not the set-up's
  const auto t0 = SteadyClock::now();
  out.workload = part.make(be);
  out.workload->backend().synchronize();
  out.setup_s = seconds_since(t0);
  return out;
}

StepTiming time_steps(Workload& wl, int64_t steps) {
  StepLoop loop;
  loop.steps_per_block = steps;
  loop.synchronize_first = true;
  const StepLoopResult r = run_steps(wl, loop);
  return {r.steps, r.elapsed_s};
}

StepTiming time_steps_for(Workload& wl, double min_s) {
  StepLoop loop;
  loop.synchronize_first = true;
  loop.another = [min_s](const StepLoopResult& done) { return done.elapsed_s < min_s; };
  const StepLoopResult r = run_steps(wl, loop);
  return {r.steps, r.elapsed_s};
}

}  // namespace edp::bench
