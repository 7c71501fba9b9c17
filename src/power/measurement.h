// What one energy window produced: joules per rail plus the evidence needed to
// judge it (samples, distinct values, gaps, failures).
#pragma once

#include <cmath>
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
  // An edge term of the lag correction reached its bound: the power changed
  // within one averaging period of the window's edge but not at it
  // (LagCorrector::edges_bounded).
  bool lag_edge_bounded = false;
  // The value did not change over a window that spans 3 or more expected
  // updates: the sensor is frozen and the energy is not to be trusted.
  bool frozen = false;
  size_t anomalies = 0;  // readings the sensor flagged inside the window (Sensor::anomalies)
};

// A window's power over time (power.timeline, DESIGN §5 samples.csv): the
// sampler's readings decimated to at most Sampler::timeline_hz points a
// second, from a short pre-roll before the window to the end of its lag tail.
// A window keeps at most Sampler::kTimelinePoints points: a longer one is
// decimated further (every other point dropped, the spacing doubled), so
// memory is bounded and fixed when the window opens.
struct Timeline {
  double spacing_s = 0;     // between two points, after decimation
  std::vector<double> t_s;  // from the window's start (t0); negative in the pre-roll
  // [rail][point], in Measurement::rails' order. power_w: as read (counters:
  // the mean power since the previous point, NaN at the first); NaN where the
  // read failed. corrected_w: the reading that describes that instant (an
  // averaging rail's value published one averaging period T later, the
  // shift of lag_correction.h, interpolated between points; NaN once the
  // points end), else power_w. The correction's edge terms are not drawn.
  std::vector<std::vector<double>> power_w, corrected_w;
  bool empty() const { return t_s.empty(); }
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
  Timeline timeline;     // empty unless the sampler keeps timelines

  double time_s() const { return t1_s - t0_s; }
  // Sum of energy over the given rails (all rails when `rails` is empty); NaN if one is missing.
  double energy_j(const std::vector<std::string>& rails = {}) const;
  // Mean power over the window of the same rails; NaN like energy_j.
  double power_w_mean(const std::vector<std::string>& rails = {}) const;
};

// The sampler's running counters (DESIGN §12, the exporter), readable at any
// time, not through windows.
struct RailCounter {
  std::string sensor, rail;
  Timing timing = Timing::instantaneous;
  bool total = false;  // one of the total rails
  // Joules since the sampler first read the rail: the trapezoid of the
  // readings (counters: the sum of their increments), never decreasing (a
  // negative segment counts 0). For an averaging rail this is also its
  // lag-corrected energy through `through_s`: a value published at u
  // describes [u - T, u], so the readings through t are the energy consumed
  // through t - T (lag_correction.h's shift, over the whole life).
  double energy_j = 0;
  // The latest valid reading (counters: the slope of the last two); NaN
  // before the first, and once reads have failed for 3 sampling periods or
  // update intervals (stale: not the power now).
  double power_w = NAN;
  double lag_s = 0;      // T: the averaging period (stated or measured), 0 for other rails
  double through_s = 0;  // steady_clock: the instant energy_j counts through (last read - T)
  double update_interval_s = 0;  // observed; 0 unknown or not averaging
  bool frozen = false;           // unchanged over 3+ expected updates (power/frozen.h), now
  size_t read_failures = 0;      // failed reads of this rail over the sampler's life
};

struct Counters {
  double t_s = 0;  // steady_clock, when they were read
  std::vector<RailCounter> rails;
  // Over the total rails: the sum of their energy and power (NaN when a
  // total rail has no reading yet), their largest update interval, whether one is frozen.
  double energy_j = 0, power_w = NAN;
  double update_interval_s = 0;
  bool frozen = false;
  size_t ticks = 0, missed_deadlines = 0, missed_in_slow_reads = 0, read_failures = 0;
  double sampler_cpu_s = 0;
  bool running = false;
};

}  // namespace edp::power
