// The one loop that times steps of a workload (DESIGN §3): blocks of steps,
// each optionally bracketed by the backend's device timer and ended by a
// synchronise, on the steady clock. Every client that runs timed steps runs
// them here: the protocol's runs (inside their energy windows), the set-up
// and calibration timings and the GEMM chooser (bench/protocol/step_timing.h), and
// the stages study's profiled pass (mlp_stages.h). The step and the hooks
// around it are template arguments, inlined: the loop costs a step no more
// than a hand-written one (edp_protocol_overhead's empty step).
#pragma once

#include <cstdint>
#include <functional>

#include "common/elapsed.h"
#include "workloads/workload.h"

namespace edp {

// What the loop has done so far (after a block), and in the end.
struct StepLoopResult {
  int64_t steps = 0;
  int blocks = 0;
  double elapsed_s = 0;  // from the loop's start to the end of the last block
  double device_s = -1;  // the blocks' device time, summed; -1 without a device timer
  double per_step_s() const { return steps > 0 ? elapsed_s / static_cast<double>(steps) : 0; }
};

struct StepLoop {
  int64_t steps_per_block = 1;
  bool synchronize_first = false;  // synchronise before the clock starts
  bool device_timer = false;       // bracket each block with the device timer
  bool synchronize_blocks = true;  // synchronise after each block
  // After each block: whether another is wanted. Null: one block.
  std::function<bool(const StepLoopResult&)> another;
};

// A hook that does nothing.
struct NoStepHook {
  void operator()() const {}
  void operator()(const StepLoopResult&) const {}
};

// `step` queues one step on `be` (a workload's step(), an MLP's);
// `before()` and `after(done)` run around each step (a stop check,
// progress, a profiler's marks) and may throw to end the loop; `done` holds
// the blocks finished so far.
template <class Step, class Before = NoStepHook, class After = NoStepHook>
StepLoopResult run_steps(Backend& be, const StepLoop& loop, Step step, Before before = Before(),
                         After after = After()) {
  if (loop.synchronize_first) be.synchronize();
  StepLoopResult r;
  const auto t0 = SteadyClock::now();
  do {
    if (loop.device_timer) be.start_device_timer();
    for (int64_t i = 0; i < loop.steps_per_block; ++i) {
      before();
      step();
      ++r.steps;
      after(static_cast<const StepLoopResult&>(r));
    }
    if (loop.device_timer) {
      const double t = be.stop_device_timer_s();  // waits for the block's steps
      if (t >= 0) r.device_s = (r.device_s < 0 ? 0 : r.device_s) + t;
    }
    ++r.blocks;
    if (loop.synchronize_blocks) be.synchronize();
    r.elapsed_s = seconds_since(t0);
  } while (loop.another && loop.another(r));
  return r;
}

// The steps of a workload, without hooks.
inline StepLoopResult run_steps(Workload& wl, const StepLoop& loop) {
  return run_steps(wl.backend(), loop, [&wl] { wl.step(); });
}

}  // namespace edp
