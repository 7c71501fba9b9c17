// The one loop that times steps of a workload (DESIGN §3): blocks of steps,
// each block optionally bracketed by the backend's device timer and ended by
// a synchronise, on the steady clock. Every client that runs timed steps
// runs them here: the protocol's runs (inside their energy windows), the
// set-up and calibration timings and the GEMM chooser (bench/step_timing.h),
// and the stages study's profiled pass (mlp_stages.h).
#pragma once

#include <cstdint>
#include <functional>

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
  // Around each step (a stop check, progress, a profiler's marks); may throw
  // to end the loop. The result holds the blocks finished so far.
  std::function<void()> before_step;
  std::function<void(const StepLoopResult&)> after_step;
  // After each block: whether another is wanted. Null: one block.
  std::function<bool(const StepLoopResult&)> another;
};

// `step` is one step queued on `be` (a workload's step(), an MLP's).
StepLoopResult run_steps(Backend& be, const std::function<void()>& step, const StepLoop& loop);
inline StepLoopResult run_steps(Workload& wl, const StepLoop& loop) {
  return run_steps(
      wl.backend(), [&wl] { wl.step(); }, loop);
}

}  // namespace edp
