// How the engine times steps of a workload outside an energy window: set-up
// (Part::make, then a synchronise), and steps between two synchronisations
// of the backend, on the steady clock, run by the one step loop
// (workloads/step_loop.h). For every client that times work without
// measuring its energy: the protocol's set-up time, the `plan` estimate's
// calibration, the GEMM chooser and the stages study's measured FLOP peak.
// (A run's own time is its energy window's span: bench/window.h.)
#pragma once

#include <cstdint>
#include <memory>

#include "bench/protocol/plan_item.h"

namespace edp::bench {

// A workload made by its part on `be`, and how long that took, the backend
// synchronised (uploads and allocations done).
struct TimedSetup {
  std::unique_ptr<Workload> workload;
  double setup_s = 0;
};
TimedSetup make_timed(const Part& part, Backend& be);

struct StepTiming {
  int64_t steps = 0;
  double elapsed_s = 0;
  double per_step_s() const { return steps > 0 ? elapsed_s / static_cast<double>(steps) : 0; }
};

// Synchronise, `steps` steps, synchronise: the time of the steps alone.
StepTiming time_steps(Workload& wl, int64_t steps);

// Steps, each followed by a synchronise, until at least `min_s` have passed
// (at least one step): for a rate where the step count is not known ahead.
StepTiming time_steps_for(Workload& wl, double min_s);

}  // namespace edp::bench
