// Timing steps outside an energy window (see step_timing.h).
#include "bench/step_timing.h"

#include <chrono>

namespace edp::bench {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

}  // namespace

TimedSetup make_timed(const Part& part, Backend& be) {
  TimedSetup out;
  be.synchronize();  // work queued before is not the set-up's
  const auto t0 = Clock::now();
  out.workload = part.make(be);
  out.workload->backend().synchronize();
  out.setup_s = seconds_since(t0);
  return out;
}

StepTiming time_steps(Workload& wl, int64_t steps) {
  Backend& be = wl.backend();
  be.synchronize();
  const auto t0 = Clock::now();
  for (int64_t i = 0; i < steps; ++i) wl.step();
  be.synchronize();
  return {steps, seconds_since(t0)};
}

StepTiming time_steps_for(Workload& wl, double min_s) {
  Backend& be = wl.backend();
  be.synchronize();
  const auto t0 = Clock::now();
  StepTiming t;
  do {
    wl.step();
    be.synchronize();
    ++t.steps;
    t.elapsed_s = seconds_since(t0);
  } while (t.elapsed_s < min_s);
  return t;
}

}  // namespace edp::bench
