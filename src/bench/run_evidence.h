// What one energy window says about one run (DESIGN §3, §5): the energy of
// the total rails, and the evidence that it can be trusted. A pure function
// of the Measurement, so each rule is tested without a sensor.
#pragma once

#include <string>
#include <vector>

#include "power/measurement.h"
#include "report/records.h"

namespace edp::bench {

struct WindowContext {
  std::vector<std::string> total_rails;
  int blocks = 1;                 // iteration blocks the window repeated
  double window_s = 0;            // the run's wall time, all blocks
  double baseline_total_w = NAN;  // idle power of the total rails, NaN if none
};

// Fills r's energy, power, EDP, dynamic energy, per-rail energy and evidence
// columns (per `blocks` where they are per iteration block), and the flags:
// low_confidence (window < 10 update intervals of the total rails, an
// averaging total rail whose interval is still unknown, a frozen total rail,
// or a sensor anomaly) and frozen. Returns why the energy could not be
// trusted ("" when it can): a failed read or a frozen value on a total rail,
// or a window the sampler did not close. The energy columns stay NaN then.
std::string judge_window(const power::Measurement& m, const WindowContext& w, report::RunRecord& r);

}  // namespace edp::bench
