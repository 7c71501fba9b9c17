// Grouped bar charts as inline SVG (no scripts, no external references): one
// bar per device in each (workload, size) group, 95% CI error bars, and a
// log-scale y axis with decade gridlines when the values span more than
// 1.5 decades, as in the paper's figures.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace edp::report {

struct Bar {
  std::string series;           // device label: picks the colour and legend entry
  std::optional<double> value;  // nullopt: nothing to draw
  std::optional<double> error;  // CI half-width
  std::string missing_text;     // shown at the baseline when value is absent ("failed")
};

struct BarGroup {
  std::string label;       // under the group: the size ("small")
  std::string supergroup;  // under a run of consecutive groups: the workload
  std::vector<Bar> bars;
};

struct BarChart {
  std::string title;                // "Time per run"
  std::string y_label;              // with unit: "time per run (s)"
  std::vector<std::string> series;  // legend order; bars of unknown series get a grey
  std::vector<BarGroup> groups;
  int width = 1160;
  int height = 440;
  bool force_log = false;  // a log axis whatever the span (all values > 0)
};

// Values whose largest/smallest ratio exceeds this get a log axis.
constexpr double kLogSpanRatio = 31.622776601683793;  // 10^1.5

struct AxisScale {
  bool log = false;
  double lo = 0, hi = 1;      // the axis range (log: powers of ten)
  std::vector<double> ticks;  // gridlines with labels
};

// Picks the axis for `values` (bar tops and error-bar ends): log when all are
// positive and they span more than kLogSpanRatio, else linear from zero with
// 1-2-5 steps. Empty input gives a linear 0..1 axis. force_log: log whenever
// all values are positive.
AxisScale choose_axis(const std::vector<double>& values, bool force_log = false);
// Tick label. Log axis: "0.01", "1", "10000" for decades 1e-3..1e4, else (or
// with powers_of_ten) "10⁷". Linear axis: format_number(v).
std::string format_tick(double v, bool log_axis, bool powers_of_ten = false);
// Numbers for people: "0.0123", "9.45", "1985", "15643", "3.12×10⁷" (powers
// of ten as superscripts from 1e6 up and below 1e-3), with `significant`
// digits below 100 and above 1e6; "" for NaN.
std::string format_number(double v, int significant = 3);
// "#4878d0" for cpu, NVIDIA green for gpu, grey for reference, ...
std::string series_color(const std::string& series, size_t index);

std::string render_bar_chart_svg(const BarChart& chart);

}  // namespace edp::report
