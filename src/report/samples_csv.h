// samples.csv (DESIGN §5, power.timeline / --timeline): every run's power
// over time, one row per point and rail. Its columns are one table here;
// rows are pure functions of one window's timeline, and the report reads the
// file back by these names (html_timeline.cpp).
//
// A row: the run's identity as in runs.csv (study, key, workload, run), the
// time from the window's start (negative in the pre-roll, past the window's
// length in the lag tail), the rail, the power as read and the lag-corrected
// power (the value that describes that instant: for an averaging rail the
// one published an averaging period later). Decimated to power.timeline_hz
// points a second; capped at power.timeline_max_rows rows a sweep.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace edp::report {

const std::vector<std::string>& samples_columns();

// One window's power over time, in the report's own terms (report does not
// depend on power: bench copies a power::Timeline into it).
struct WindowSamples {
  std::string study, key, workload;
  int run = 0;
  std::vector<std::string> rails;
  std::vector<double> t_s;                                // from the window's start
  std::vector<std::vector<double>> power_w, corrected_w;  // [rail][point]; NaN: none
};

// Rows a window gives: one per point and rail.
size_t samples_row_count(const WindowSamples& w);
// The rows, points in time order, rails in `rails` order at each point.
std::vector<std::vector<std::string>> samples_rows(const WindowSamples& w);
// The same rows as CSV text (csv_line each), for appending.
std::string samples_csv_text(const WindowSamples& w);

}  // namespace edp::report
