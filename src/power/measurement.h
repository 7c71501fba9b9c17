// What one energy window produced: joules per rail plus the evidence needed to
// judge it (samples, distinct values, gaps, failures).
#pragma once

#include <cstddef>
#include <limits>
#include <string>
#include <vector>

#include "power/sensor.h"

namespace edp::power {

struct RailMeasurement {
  std::string sensor;  // "jetson", "rapl", ...
  std::string rail;    // "VDD_IN", "package-0", ...
  Timing timing = Timing::instantaneous;
  double energy_j;  // NaN when the rail had no valid reading in the window; lag-corrected
  double power_w_mean;
  size_t samples;          // valid readings with t0 <= t <= t1
  size_t distinct_values;  // 1 + number of value changes between those readings
  double largest_gap_s;    // longest stretch without a valid reading, edges included
  // The rail's update interval (robust estimate over the sampler's history,
  // DESIGN §4.2); 0 while unknown. Counters and instantaneous rails: 0.
  double update_interval_s = 0;
  size_t read_failures = 0;  // failed reads of this rail inside the window
  // Averaging rails (DESIGN §4.2): the held values integrated as read, and
  // the lag the correction removed (the averaging period; 0 = none applied).
  // For other rails energy_uncorrected_j == energy_j.
  double energy_uncorrected_j = std::numeric_limits<double>::quiet_NaN();
  double lag_correction_s = 0;
  // The value did not change over a window that spans 3 or more expected
  // updates: the sensor is frozen and the energy is not to be trusted.
  bool frozen = false;
  size_t anomalies = 0;  // readings the sensor flagged inside the window (Sensor::anomalies)
};

struct Measurement {
  double t0_s = 0, t1_s = 0;            // steady_clock (CLOCK_MONOTONIC) seconds
  double t0_unix_s = 0, t1_unix_s = 0;  // the same instants on CLOCK_REALTIME
  std::vector<RailMeasurement> rails;
  size_t samples = 0;  // sampler ticks inside the window
  // Over the total rails (EnergyMeter::set_total_rails; every rail when none
  // is set): the largest update interval, 0 if unknown; the largest lag
  // correction; whether one was frozen; sensor anomalies and the last text.
  double update_interval_s = 0;
  double lag_correction_s = 0;
  bool frozen = false;
  size_t anomalies = 0;
  std::string anomaly;
  size_t read_failures = 0, missed_deadlines = 0;
  // Of missed_deadlines, those that passed while a read was running that
  // alone took longer than a period: the sensor was slow, not the machine
  // busy (the sampler thread started on time).
  size_t missed_in_slow_reads = 0;
  // When the sampler stopped counting this window's ticks and missed
  // deadlines (steady_clock): after t1_s, since end_window waits for the
  // updates the lag correction needs (up to 2.5 averaging periods). The
  // deadlines expected are rate x (sampled_until_s - t0_s), not x time_s().
  double sampled_until_s = 0;
  bool complete = true;  // false if reads failed inside the window
  std::string error;     // first failure text, e.g. "trace: no value for VDD_IN_w at t=3.1 s"

  double time_s() const { return t1_s - t0_s; }
  // Sum of energy over the given rails (all rails when `rails` is empty); NaN if one is missing.
  double energy_j(const std::vector<std::string>& rails = {}) const;
  // Mean power over the window of the same rails; NaN like energy_j.
  double power_w_mean(const std::vector<std::string>& rails = {}) const;
};

}  // namespace edp::power
