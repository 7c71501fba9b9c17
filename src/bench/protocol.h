// The measurement protocol of DESIGN §3, for any plan item: check, set up,
// warm up, run trials in energy windows, summarise. There is no `if (study
// == ...)` here: what varies comes from the item's ProtocolSettings and its
// workloads.
#pragma once

#include <cmath>
#include <functional>
#include <string>

#include "bench/plan.h"
#include "bench/study.h"
#include "bench/sweep.h"
#include "report/records.h"

namespace edp::bench {

// Measures every part of `item` on one backend. A device this build or
// machine lacks gives `skipped` with the reason; an energy window that
// cannot be trusted makes its part `failed` (times kept). Throws
// Interrupted on SIGINT/SIGTERM, and what the backend throws (out of memory)
// for the runner to record as `failed`.
// `study`, when given, runs its extra pass (Study::after_parts) on the
// item's backend after the timed parts, never inside a window.
report::ItemRecord measure_item(Sweep& s, const PlanItem& item, const Study* study = nullptr);

// 2. of the protocol, warm-up: `steps` steps (none for 0), then a
// synchronise. The first step's result() is the initial one (the MLP's loss
// before training); a step that fails (Workload::step_failure) ends it, with
// why. `plan`'s calibration warms up with this too. Throws Interrupted.
struct WarmUp {
  int steps = 0;  // steps run, the failed one included
  double initial_result = NAN;
  std::string failure;  // "" when every step succeeded
};
WarmUp warm_up(Workload& wl, int steps, const std::function<void()>& after_step = {});

// A record of `item` with nothing measured (for failures the runner catches).
report::ItemRecord blank_record(const Sweep& s, const PlanItem& item);

}  // namespace edp::bench
