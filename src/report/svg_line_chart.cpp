// Layout: title and legend on top, the plot area, x tick labels and the x
// label below; the y label runs up the left side. Both axes are log10, one
// gridline per decade, the range widened to whole decades.
#include "report/svg_line_chart.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "common/text.h"
#include "report/html_escape.h"
#include "report/svg_chart.h"
#include "report/svg_common.h"

namespace edp::report {
namespace {

using svg::kFont;
using svg::num;

struct Decades {
  int lo = 0, hi = 1;
};

Decades decades_of(const std::vector<double>& values) {
  double lo = HUGE_VAL, hi = -HUGE_VAL;
  for (double v : values)
    if (v > 0 && std::isfinite(v)) {
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
  Decades d;
  if (!(hi >= lo)) return d;
  d.lo = static_cast<int>(std::floor(std::log10(lo) + 1e-9));
  d.hi = static_cast<int>(std::ceil(std::log10(hi) - 1e-9));
  if (d.hi <= d.lo) d.hi = d.lo + 1;
  return d;
}

}  // namespace

std::string render_line_chart_svg(const LineChart& chart) {
  std::vector<double> xs, ys;
  for (const auto& s : chart.series)
    for (const auto& p : s.points) {
      if (!(p.x > 0 && p.y > 0) || !std::isfinite(p.x) || !std::isfinite(p.y)) continue;
      xs.push_back(p.x);
      ys.push_back(p.y);
      if (p.error && *p.error > 0) {
        ys.push_back(p.y + *p.error);
        if (p.y - *p.error > 0) ys.push_back(p.y - *p.error);
      }
    }
  if (xs.empty()) return "";
  for (const auto& m : chart.markers)
    if (m.x > 0) xs.push_back(m.x);
  const Decades dx = decades_of(xs), dy = decades_of(ys);

  const double W = chart.width, H = chart.height;
  const double left = 76, right = 18, top = 62, bottom = 52;
  const double pw = W - left - right, ph = H - top - bottom;
  auto x_of = [&](double v) {
    const double f = (std::log10(v) - dx.lo) / (dx.hi - dx.lo);
    return left + pw * std::min(1.0, std::max(0.0, f));
  };
  auto y_of = [&](double v) {
    const double f = (std::log10(std::max(v, 1e-300)) - dy.lo) / (dy.hi - dy.lo);
    return top + ph * (1 - std::min(1.0, std::max(0.0, f)));
  };
  auto tick = [](int e, bool powers) { return format_tick(std::pow(10.0, e), true, powers); };

  std::string s = "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart line\"";
  if (!chart.id.empty()) s += " id=\"" + html_escape(chart.id) + "\"";
  s += " viewBox=\"0 0 " + num(W) + " " + num(H) + "\" width=\"" + num(W) + "\" height=\"" +
       num(H) + "\" role=\"img\" font-family=\"" + kFont + "\">\n";
  s += "<title>" + html_escape(chart.title) + " (log-log)</title>\n";
  s += "<rect x=\"0\" y=\"0\" width=\"" + num(W) + "\" height=\"" + num(H) +
       "\" fill=\"#ffffff\"/>\n";
  s += "<text x=\"" + num(left) +
       "\" y=\"20\" font-size=\"15\" font-weight=\"bold\" fill=\"#222\">" +
       html_escape(chart.title) + "</text>\n";

  // Legend on the second line.
  {
    double x = left;
    size_t index = 0;
    for (const auto& series : chart.series) {
      const size_t i = index++;
      if (!series.in_legend) continue;
      const std::string color = series.color.empty() ? series_color(series.name, i) : series.color;
      s += "<rect x=\"" + num(x) + "\" y=\"31\" width=\"12\" height=\"12\" fill=\"" + color +
           "\"/><text x=\"" + num(x + 16) + "\" y=\"42\" font-size=\"12\" fill=\"#222\">" +
           html_escape(series.name) + "</text>\n";
      x += 28 + 7 * static_cast<double>(series.name.size());
    }
  }

  // Decade gridlines and labels.
  const bool x_powers = dx.lo < -3 || dx.hi > 4;
  const bool y_powers = dy.lo < -3 || dy.hi > 4;
  s += "<g class=\"grid\" font-size=\"11\" fill=\"#444\">\n";
  for (int e = dy.lo; e <= dy.hi; ++e) {
    const double y = y_of(std::pow(10.0, e));
    s += "<line x1=\"" + num(left) + "\" y1=\"" + num(y) + "\" x2=\"" + num(left + pw) +
         "\" y2=\"" + num(y) + "\" stroke=\"#e3e3e3\"/><text x=\"" + num(left - 6) + "\" y=\"" +
         num(y + 4) + "\" text-anchor=\"end\">" + tick(e, y_powers) + "</text>\n";
  }
  for (int e = dx.lo; e <= dx.hi; ++e) {
    const double x = x_of(std::pow(10.0, e));
    s += "<line x1=\"" + num(x) + "\" y1=\"" + num(top) + "\" x2=\"" + num(x) + "\" y2=\"" +
         num(top + ph) + "\" stroke=\"#e3e3e3\"/><text x=\"" + num(x) + "\" y=\"" +
         num(top + ph + 16) + "\" text-anchor=\"middle\">" + tick(e, x_powers) + "</text>\n";
  }
  s += "</g>\n<rect x=\"" + num(left) + "\" y=\"" + num(top) + "\" width=\"" + num(pw) +
       "\" height=\"" + num(ph) + "\" fill=\"none\" stroke=\"#999\"/>\n";
  s += "<text x=\"" + num(left + pw / 2) + "\" y=\"" + num(H - 10) +
       "\" font-size=\"12\" fill=\"#333\" text-anchor=\"middle\">" + html_escape(chart.x_label) +
       " (log scale)</text>\n";
  s += "<text transform=\"translate(16 " + num(top + ph / 2) +
       ") rotate(-90)\" font-size=\"12\" fill=\"#333\" text-anchor=\"middle\">" +
       html_escape(chart.y_label) + " (log scale)</text>\n";

  // Vertical markers under the data.
  for (const auto& m : chart.markers) {
    if (!(m.x > 0)) continue;
    const double x = x_of(m.x);
    s += "<g class=\"marker\"><line x1=\"" + num(x) + "\" y1=\"" + num(top) + "\" x2=\"" + num(x) +
         "\" y2=\"" + num(top + ph) + "\" stroke=\"" + m.color +
         "\" stroke-width=\"1.5\" stroke-dasharray=\"5 3\"/><text x=\"" + num(x + 4) + "\" y=\"" +
         num(top + 12) + "\" font-size=\"11\" fill=\"" + m.color + "\">" + html_escape(m.label) +
         "</text></g>\n";
  }

  size_t index = 0;
  for (const auto& series : chart.series) {
    const size_t i = index++;
    const std::string color = series.color.empty() ? series_color(series.name, i) : series.color;
    std::vector<LinePoint> pts;
    for (const auto& p : series.points)
      if (p.x > 0 && p.y > 0 && std::isfinite(p.x) && std::isfinite(p.y)) pts.push_back(p);
    if (pts.empty()) continue;
    s += "<g class=\"series\" data-series=\"" + html_escape(series.name) + "\">";
    if (series.line && pts.size() > 1) {
      std::string d;
      for (const auto& p : pts) d += (d.empty() ? "" : " ") + num(x_of(p.x)) + "," + num(y_of(p.y));
      s += "<polyline points=\"" + d + "\" fill=\"none\" stroke=\"" + color +
           "\" stroke-width=\"2\"" + (series.dashed ? " stroke-dasharray=\"6 4\"" : "") + "/>";
    }
    for (const auto& p : pts) {
      const double x = x_of(p.x), y = y_of(p.y);
      if (p.error && *p.error > 0) {
        const double y1 = y_of(p.y + *p.error);
        const double y2 = p.y - *p.error > 0 ? y_of(p.y - *p.error) : top + ph;
        s += "<line x1=\"" + num(x) + "\" y1=\"" + num(y1) + "\" x2=\"" + num(x) + "\" y2=\"" +
             num(y2) + "\" stroke=\"" + color + "\"/>";
      }
      if (series.markers)
        s +=
            "<circle cx=\"" + num(x) + "\" cy=\"" + num(y) + "\" r=\"3.5\" fill=\"" + color +
            "\"><title>" +
            html_escape(series.name + ": " + format_number(p.x, 4) + ", " + format_number(p.y, 4)) +
            "</title></circle>";
      if (!p.label.empty()) {
        // Labels near the right edge end at the point, others start there.
        const bool right_half = x > left + pw / 2;
        s += "<text x=\"" + num(right_half ? x - 5 : x + 5) + "\" y=\"" + num(y - 5) +
             "\" font-size=\"10\" fill=\"" + color + "\"" +
             (right_half ? " text-anchor=\"end\"" : "") + ">" + html_escape(p.label) + "</text>";
      }
    }
    s += "</g>\n";
  }
  return s + "</svg>\n";
}

}  // namespace edp::report
