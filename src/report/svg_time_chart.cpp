// Layout as the other charts (svg_line_chart.cpp): title and legend on top,
// the plot area, x tick labels and label below, the y label up the left.
#include "report/svg_time_chart.h"

#include <algorithm>
#include <cmath>

#include "common/text.h"
#include "report/html_escape.h"
#include "report/svg_chart.h"
#include "report/svg_common.h"

namespace edp::report {
namespace {

using svg::kFont;
using svg::num;

}  // namespace

std::vector<double> linear_ticks(double lo, double hi, int target) {
  if (!(hi > lo) || !std::isfinite(lo) || !std::isfinite(hi)) return {lo};
  const double raw = (hi - lo) / std::max(1, target);
  const double decade = std::pow(10.0, std::floor(std::log10(raw)));
  double step = decade;
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * decade >= raw) {
      step = m * decade;
      break;
    }
  std::vector<double> ticks;
  for (double t = std::ceil(lo / step - 1e-9) * step; t <= hi + step * 1e-9; t += step)
    ticks.push_back(std::fabs(t) < step * 1e-9 ? 0.0 : t);
  return ticks;
}

std::string render_time_chart_svg(const TimeChart& chart) {
  double x_lo = HUGE_VAL, x_hi = -HUGE_VAL, y_hi = 0;
  for (const auto& s : chart.series)
    for (const auto& [x, y] : s.points)
      if (std::isfinite(x) && std::isfinite(y)) {
        x_lo = std::min(x_lo, x);
        x_hi = std::max(x_hi, x);
        y_hi = std::max(y_hi, y);
      }
  if (!(x_hi >= x_lo)) return "";
  for (const auto& m : chart.markers)
    if (std::isfinite(m.x)) {
      x_lo = std::min(x_lo, m.x);
      x_hi = std::max(x_hi, m.x);
    }
  for (const auto& l : chart.levels)
    if (std::isfinite(l.y)) y_hi = std::max(y_hi, l.y);
  if (x_hi == x_lo) x_hi = x_lo + 1;
  const AxisScale y_axis = choose_axis({y_hi > 0 ? y_hi * 1.05 : 1.0});
  const double y_lo = 0, y_top = y_axis.hi;

  const double W = chart.width, H = chart.height;
  const double left = 62, right = 18, top = 62, bottom = 50;
  const double pw = W - left - right, ph = H - top - bottom;
  auto x_of = [&](double v) { return left + pw * (v - x_lo) / (x_hi - x_lo); };
  auto y_of = [&](double v) {
    const double f = (v - y_lo) / (y_top - y_lo);
    return top + ph * (1 - std::min(1.0, std::max(0.0, f)));
  };

  std::string s = "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart time\"";
  if (!chart.id.empty()) s += " id=\"" + html_escape(chart.id) + "\"";
  s += " viewBox=\"0 0 " + num(W) + " " + num(H) + "\" width=\"" + num(W) + "\" height=\"" +
       num(H) + "\" role=\"img\" font-family=\"" + kFont + "\">\n";
  s += "<title>" + html_escape(chart.title) + "</title>\n";
  s += "<rect x=\"0\" y=\"0\" width=\"" + num(W) + "\" height=\"" + num(H) +
       "\" fill=\"#ffffff\"/>\n";
  s += "<text x=\"" + num(left) +
       "\" y=\"20\" font-size=\"14\" font-weight=\"bold\" fill=\"#222\">" +
       html_escape(chart.title) + "</text>\n";
  {
    double x = left;
    for (const auto& series : chart.series) {
      s += "<line x1=\"" + num(x) + "\" y1=\"37\" x2=\"" + num(x + 16) + "\" y2=\"37\" stroke=\"" +
           series.color + "\" stroke-width=\"2.5\"" +
           (series.dashed ? " stroke-dasharray=\"5 3\"" : "") + "/><text x=\"" + num(x + 20) +
           "\" y=\"41\" font-size=\"12\" fill=\"#222\">" + html_escape(series.name) + "</text>\n";
      x += 32 + 7 * static_cast<double>(series.name.size());
    }
  }

  s += "<g class=\"grid\" font-size=\"11\" fill=\"#444\">\n";
  for (double v : y_axis.ticks) {
    const double y = y_of(v);
    s += "<line x1=\"" + num(left) + "\" y1=\"" + num(y) + "\" x2=\"" + num(left + pw) +
         "\" y2=\"" + num(y) + "\" stroke=\"#e3e3e3\"/><text x=\"" + num(left - 6) + "\" y=\"" +
         num(y + 4) + "\" text-anchor=\"end\">" + format_number(v) + "</text>\n";
  }
  for (double v : linear_ticks(x_lo, x_hi)) {
    const double x = x_of(v);
    s += "<line x1=\"" + num(x) + "\" y1=\"" + num(top) + "\" x2=\"" + num(x) + "\" y2=\"" +
         num(top + ph) + "\" stroke=\"#e3e3e3\"/><text x=\"" + num(x) + "\" y=\"" +
         num(top + ph + 16) + "\" text-anchor=\"middle\">" + format_number(v) + "</text>\n";
  }
  s += "</g>\n<rect x=\"" + num(left) + "\" y=\"" + num(top) + "\" width=\"" + num(pw) +
       "\" height=\"" + num(ph) + "\" fill=\"none\" stroke=\"#999\"/>\n";
  s += "<text x=\"" + num(left + pw / 2) + "\" y=\"" + num(H - 10) +
       "\" font-size=\"12\" fill=\"#333\" text-anchor=\"middle\">" + html_escape(chart.x_label) +
       "</text>\n";
  s += "<text transform=\"translate(16 " + num(top + ph / 2) +
       ") rotate(-90)\" font-size=\"12\" fill=\"#333\" text-anchor=\"middle\">" +
       html_escape(chart.y_label) + "</text>\n";

  for (const auto& l : chart.levels) {
    if (!std::isfinite(l.y)) continue;
    const double y = y_of(l.y);
    s += "<g class=\"level\"><line x1=\"" + num(left) + "\" y1=\"" + num(y) + "\" x2=\"" +
         num(left + pw) + "\" y2=\"" + num(y) + "\" stroke=\"" + l.color +
         "\" stroke-width=\"1.5\" stroke-dasharray=\"2 3\"/><text x=\"" + num(left + pw - 4) +
         "\" y=\"" + num(y - 4) + "\" font-size=\"11\" text-anchor=\"end\" fill=\"" + l.color +
         "\">" + html_escape(l.label) + "</text></g>\n";
  }
  for (const auto& m : chart.markers) {
    if (!std::isfinite(m.x)) continue;
    const double x = x_of(m.x);
    // A label in the right half ends at its line, others start there.
    const bool right_half = x > left + pw / 2;
    s += "<g class=\"marker\"><line x1=\"" + num(x) + "\" y1=\"" + num(top) + "\" x2=\"" + num(x) +
         "\" y2=\"" + num(top + ph) + "\" stroke=\"" + m.color +
         "\" stroke-width=\"1.5\" stroke-dasharray=\"5 3\"/><text x=\"" +
         num(right_half ? x - 4 : x + 4) + "\" y=\"" + num(top + 12) +
         "\" font-size=\"11\" fill=\"" + m.color + "\"" +
         (right_half ? " text-anchor=\"end\"" : "") + ">" + html_escape(m.label) + "</text></g>\n";
  }
  for (const auto& series : chart.series) {
    s += "<g class=\"series\" data-series=\"" + html_escape(series.name) + "\">";
    // A stretch without points (the sampler stalled, the process stopped)
    // is a break in the line, not a straight segment across it: the line
    // breaks where two points lie more than kGapSpacings of the series'
    // median spacing apart. A point alone between breaks is a dot.
    constexpr double kGapSpacings = 3;
    std::vector<double> steps;
    double last_x = NAN;
    for (const auto& [x, y] : series.points)
      if (std::isfinite(x) && std::isfinite(y)) {
        if (std::isfinite(last_x) && x > last_x) steps.push_back(x - last_x);
        last_x = x;
      }
    double max_step = INFINITY;
    if (!steps.empty()) {
      std::nth_element(steps.begin(), steps.begin() + steps.size() / 2, steps.end());
      max_step = kGapSpacings * steps[steps.size() / 2];
    }
    std::string d;
    size_t in_line = 0;
    double line_x = 0, line_y = 0;
    auto flush = [&] {
      if (in_line > 1)
        s += "<polyline points=\"" + d + "\" fill=\"none\" stroke=\"" + series.color +
             "\" stroke-width=\"2\" stroke-linejoin=\"round\"" +
             (series.dashed ? " stroke-dasharray=\"6 4\"" : "") + "/>";
      else if (in_line == 1)
        s += "<circle cx=\"" + num(line_x) + "\" cy=\"" + num(line_y) + "\" r=\"2\" fill=\"" +
             series.color + "\"/>";
      d.clear();
      in_line = 0;
    };
    last_x = NAN;
    for (const auto& [x, y] : series.points) {
      if (!std::isfinite(x) || !std::isfinite(y)) {
        flush();
        last_x = NAN;
        continue;
      }
      if (std::isfinite(last_x) && x - last_x > max_step) flush();
      last_x = x;
      line_x = x_of(x);
      line_y = y_of(y);
      d += (d.empty() ? "" : " ") + num(line_x) + "," + num(line_y);
      ++in_line;
    }
    flush();
    s += "</g>\n";
  }
  return s + "</svg>\n";
}

}  // namespace edp::report
