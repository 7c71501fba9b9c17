// Log-log line and scatter charts as inline SVG: per-sample time against
// batch size N (batch study), throughput against size and the roofline (ops
// study). Decade gridlines on both axes, optional error bars, dashed series
// (ceilings) and labelled vertical markers (the crossover N).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace edp::report {

struct LinePoint {
  double x = 0, y = 0;          // both > 0 (log axes); others are skipped
  std::optional<double> error;  // CI half-width of y
  std::string label;            // drawn beside the point when not empty
};

struct LineSeries {
  std::string name;       // legend entry; picks the colour (series_color)
  std::string color;      // overrides the colour when set
  bool line = true;       // join the points
  bool markers = true;    // a dot per point
  bool dashed = false;    // ceilings and references
  bool in_legend = true;  // ceilings are labelled on the chart instead
  std::vector<LinePoint> points;
};

struct VerticalMarker {
  double x = 0;
  std::string label;  // "GPU from N = 16"
  std::string color = "#c44e52";
};

struct LineChart {
  std::string id;  // the <svg> id ("" for none)
  std::string title, x_label, y_label;
  std::vector<LineSeries> series;
  std::vector<VerticalMarker> markers;
  int width = 570;
  int height = 380;
};

// Empty when no series has a drawable point.
std::string render_line_chart_svg(const LineChart& chart);

}  // namespace edp::report
