// The one step-timing loop (see step_loop.h).
#include "workloads/step_loop.h"

#include "common/elapsed.h"

namespace edp {

StepLoopResult run_steps(Backend& be, const std::function<void()>& step, const StepLoop& loop) {
  if (loop.synchronize_first) be.synchronize();
  StepLoopResult r;
  const auto t0 = SteadyClock::now();
  do {
    if (loop.device_timer) be.start_device_timer();
    for (int64_t i = 0; i < loop.steps_per_block; ++i) {
      if (loop.before_step) loop.before_step();
      step();
      ++r.steps;
      if (loop.after_step) loop.after_step(r);
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

}  // namespace edp
