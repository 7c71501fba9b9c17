// What one energy window produced: joules per rail plus the evidence needed to
// judge it (samples, distinct values, gaps, failures).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace edp::power {

struct RailMeasurement {
  std::string sensor;  // "jetson", "rapl", ...
  std::string rail;    // "VDD_IN", "package-0", ...
  double energy_j;     // NaN when the rail had no valid reading in the window
  double power_w_mean;
  size_t samples;                // valid readings with t0 <= t <= t1
  size_t distinct_values;        // 1 + number of value changes between those readings
  double largest_gap_s;          // longest stretch without a valid reading, edges included
  double update_interval_s = 0;  // mean time between value changes, 0 if < 2 changes
  size_t read_failures = 0;      // failed reads of this rail inside the window
};

struct Measurement {
  double t0_s = 0, t1_s = 0;  // steady_clock seconds
  std::vector<RailMeasurement> rails;
  size_t samples = 0;            // sampler ticks inside the window
  double update_interval_s = 0;  // observed sensor update interval (max over rails), 0 if unknown
  size_t read_failures = 0, missed_deadlines = 0;
  bool complete = true;  // false if reads failed inside the window
  std::string error;     // first failure text, e.g. "trace: no value for VDD_IN_w at t=3.1 s"

  double time_s() const { return t1_s - t0_s; }
  // Sum of energy over the given rails (all rails when `rails` is empty); NaN if one is missing.
  double energy_j(const std::vector<std::string>& rails = {}) const;
  // Mean power over the window of the same rails; NaN like energy_j.
  double power_w_mean(const std::vector<std::string>& rails = {}) const;
};

}  // namespace edp::power
