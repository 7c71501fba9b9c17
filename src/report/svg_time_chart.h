// Power over time as inline SVG (the report's timeline, html_timeline.cpp):
// linear axes, time on x (seconds, negative before the window opened), watts
// on y from zero, one polyline per series (NaN breaks the line), vertical
// markers (the window's edges) and horizontal reference lines (the idle
// baseline).
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace edp::report {

struct TimeSeries {
  std::string name;   // legend entry
  std::string color;  // e.g. "#4c72b0"
  bool dashed = false;
  std::vector<std::pair<double, double>> points;  // (x, y) in x order; NaN y: a gap
};

struct TimeMarker {
  double x = 0;  // vertical line
  std::string label, color = "#555555";
};

struct TimeLevel {
  double y = 0;  // horizontal line
  std::string label, color = "#8c8c8c";
};

struct TimeChart {
  std::string id, title, x_label, y_label;
  std::vector<TimeSeries> series;
  std::vector<TimeMarker> markers;
  std::vector<TimeLevel> levels;
  int width = 570;
  int height = 320;
};

// 1-2-5 steps that cover [lo, hi] with about `target` intervals.
std::vector<double> linear_ticks(double lo, double hi, int target = 6);

// Empty when no series has a finite point.
std::string render_time_chart_svg(const TimeChart& chart);

}  // namespace edp::report
