// Layout of the grouped bar chart, top to bottom: title and legend, the plot
// area, size labels, workload labels. Every string is XML-escaped here, so
// callers pass plain text.
#include "report/svg_chart.h"

#include "common/text.h"
#include "report/html_escape.h"
#include "report/svg_common.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace edp::report {

namespace {

using svg::kFont;
using svg::num;

std::string superscript(int e) {
  static const char* sup[] = {"\xE2\x81\xB0", "\xC2\xB9",     "\xC2\xB2",     "\xC2\xB3",
                              "\xE2\x81\xB4", "\xE2\x81\xB5", "\xE2\x81\xB6", "\xE2\x81\xB7",
                              "\xE2\x81\xB8", "\xE2\x81\xB9"};
  std::string s;
  if (e < 0) s += "\xE2\x81\xBB";  // superscript minus
  for (char d : std::to_string(std::abs(e))) s += sup[d - '0'];
  return s;
}

// 1, 2 or 5 times a power of ten, at least `raw`.
double nice_step(double raw) {
  const double p = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * p >= raw * (1 - 1e-9)) return m * p;
  return 10 * p;
}

}  // namespace

AxisScale choose_axis(const std::vector<double>& values, bool force_log) {
  AxisScale a;
  double lo = HUGE_VAL, hi = -HUGE_VAL;
  bool all_positive = true;
  for (double v : values) {
    // Beyond 1e300 the headroom and tick arithmetic would overflow, and
    // below 1e-300 a log axis would reach denormals and 10^-324 = 0; such a
    // value can only come from a corrupt CSV, and is left off the axis.
    if (!std::isfinite(v) || std::fabs(v) > 1e300 || (v != 0 && std::fabs(v) < 1e-300)) continue;
    lo = std::min(lo, v);
    hi = std::max(hi, v);
    if (v <= 0) all_positive = false;
  }
  if (!(hi >= lo)) {  // no finite values
    a.lo = 0;
    a.hi = 1;
    for (int k = 0; k <= 5; ++k) a.ticks.push_back(k * 0.2);
    return a;
  }
  if (all_positive && (force_log || hi / lo > kLogSpanRatio)) {
    a.log = true;
    int e_lo = static_cast<int>(std::floor(std::log10(lo) + 1e-9));
    // Headroom above the tallest bar for its value label.
    int e_hi = static_cast<int>(std::ceil(std::log10(hi) + std::log10(2.5) - 1e-9));
    if (e_hi <= e_lo) e_hi = e_lo + 1;
    a.lo = std::pow(10.0, e_lo);
    a.hi = std::pow(10.0, e_hi);
    // A tick per decade, or per k decades so that there are at most 12.
    const int every = (e_hi - e_lo + 10) / 11;
    for (int e = e_lo; e <= e_hi; e += every) a.ticks.push_back(std::pow(10.0, e));
    return a;
  }
  const double top = std::max(hi, 0.0) * 1.15;
  // The step comes from the whole span, negative values included, so the
  // axis has about five ticks whatever the values.
  const double span = top - std::min(lo, 0.0);
  const double step = nice_step(span > 0 ? span / 5 : 0.2);
  a.lo = std::min(0.0, std::floor(lo / step) * step);
  a.hi = std::max(step, std::ceil(top / step) * step);
  for (double t = a.lo; t <= a.hi + step * 1e-6; t += step)
    a.ticks.push_back(std::fabs(t) < step * 1e-9 ? 0 : t);
  return a;
}

std::string format_tick(double v, bool log_axis, bool powers_of_ten) {
  if (log_axis) {
    const int e = static_cast<int>(std::lround(std::log10(v)));
    if (powers_of_ten || e < -3 || e > 4) return "10" + superscript(e);
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.*f", e < 0 ? -e : 0, v);
    return buf;
  }
  return format_number(v, 3);
}

std::string format_number(double v, int significant) {
  if (std::isnan(v)) return "";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  if (v == 0) return "0";
  char buf[48];
  const double a = std::fabs(v);
  // Scientific from 1e6, or earlier when the digits would claim more precision
  // than asked for (a CI of 621264 at 2 significant digits reads 6.2×10⁵).
  const double sci_from = std::min(1e6, std::pow(10.0, significant + 2));
  if (a >= sci_from || a < 1e-3) {
    int e = static_cast<int>(std::floor(std::log10(a)));
    double m = v / std::pow(10.0, e);
    std::snprintf(buf, sizeof buf, "%.*f", std::max(0, significant - 1), m);
    if (std::fabs(std::strtod(buf, nullptr)) >= 10) {  // 9.999 rounded up to 10.00
      ++e;
      std::snprintf(buf, sizeof buf, "%.*f", std::max(0, significant - 1), v / std::pow(10.0, e));
    }
    return std::string(buf) +
           "\xC3\x97"
           "10" +
           superscript(e);  // ×10ⁿ
  }
  if (a >= 100) {
    std::snprintf(buf, sizeof buf, "%.0f", v);
  } else {
    std::snprintf(buf, sizeof buf, "%.*g", significant, v);
  }
  return buf;
}

std::string series_color(const std::string& series, size_t index) {
  const std::string kind = series.substr(0, series.find('#'));
  const bool variant = kind.size() != series.size();
  if (kind == "cpu") return variant ? "#8fb0ea" : "#3b6fd4";
  if (kind == "gpu") return variant ? "#b4dd55" : "#6aa300";
  if (kind == "reference") return "#9a9a9a";
  static const char* palette[] = {"#d1793a", "#9467bd", "#c44e52", "#17becf", "#8c564b"};
  return palette[index % 5];
}

std::string render_bar_chart_svg(const BarChart& chart) {
  const double W = chart.width, H = chart.height;
  const double left = 84, right = 16, top = 58, bottom = 64;
  const double pw = W - left - right, ph = H - top - bottom;

  std::vector<double> extents;
  for (const auto& g : chart.groups)
    for (const auto& b : g.bars) {
      if (!b.value) continue;
      extents.push_back(*b.value);
      if (b.error && *b.error > 0) {
        extents.push_back(*b.value + *b.error);
        // A lower error end at or below zero cannot sit on a log axis; the
        // bar itself decides the range then, and the whisker is clipped.
        if (*b.value - *b.error > 0) extents.push_back(*b.value - *b.error);
      }
    }
  const AxisScale axis = choose_axis(extents, chart.force_log);
  auto y_of = [&](double v) {
    double f;
    if (axis.log) {
      v = std::max(v, axis.lo);
      f = (std::log10(v) - std::log10(axis.lo)) / (std::log10(axis.hi) - std::log10(axis.lo));
    } else {
      f = (v - axis.lo) / (axis.hi - axis.lo);
    }
    f = std::min(1.0, std::max(0.0, f));
    return top + ph * (1 - f);
  };
  const double base_y = axis.log ? top + ph : y_of(std::max(0.0, axis.lo));

  std::string s;
  s += "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" viewBox=\"0 0 " + num(W) + " " +
       num(H) + "\" width=\"" + num(W) + "\" height=\"" + num(H) +
       "\" role=\"img\" font-family=\"" + kFont + "\">\n";
  s += "<title>" + html_escape(chart.title) + (axis.log ? " (log scale)" : "") + "</title>\n";
  s += "<rect x=\"0\" y=\"0\" width=\"" + num(W) + "\" height=\"" + num(H) +
       "\" fill=\"#ffffff\"/>\n";
  s += "<text x=\"" + num(left) +
       "\" y=\"24\" font-size=\"17\" font-weight=\"bold\" fill=\"#222\">" +
       html_escape(chart.title) + "</text>\n";
  s +=
      "<text x=\"" + num(left) + "\" y=\"43\" font-size=\"12\" fill=\"#555\">" +
      (axis.log ? std::string("log scale: one gridline per decade") : std::string("linear scale")) +
      "; whiskers: 95% CI of the mean</text>\n";

  // Legend, right-aligned on the title line.
  {
    double x = W - right;
    std::string legend;
    for (size_t i = chart.series.size(); i-- > 0;) {
      const std::string& name = chart.series[i];
      const double w = 24 + 7.5 * static_cast<double>(name.size());
      x -= w;
      legend += "<rect x=\"" + num(x) + "\" y=\"14\" width=\"14\" height=\"14\" fill=\"" +
                series_color(name, i) + "\"/>";
      legend += "<text x=\"" + num(x + 19) + "\" y=\"26\" font-size=\"13\" fill=\"#222\">" +
                html_escape(name) + "</text>\n";
    }
    s += "<g class=\"legend\">" + legend + "</g>\n";
  }

  // Gridlines and tick labels.
  s += "<g class=\"grid\" font-size=\"12\" fill=\"#444\" text-anchor=\"end\">\n";
  // Powers of ten throughout once one decade needs them: "1000" next to "10⁴" reads badly.
  bool powers = false;
  for (double t : axis.ticks) powers = powers || (axis.log && (t < 0.9e-3 || t > 1.1e4));
  for (double t : axis.ticks) {
    const double y = y_of(t);
    s += "<line x1=\"" + num(left) + "\" x2=\"" + num(left + pw) + "\" y1=\"" + num(y) +
         "\" y2=\"" + num(y) + "\" stroke=\"" + (t == 0 ? "#888" : "#dddddd") +
         "\" stroke-width=\"1\"/>";
    s += "<text x=\"" + num(left - 7) + "\" y=\"" + num(y + 4) + "\">" +
         html_escape(format_tick(t, axis.log, powers)) + "</text>\n";
  }
  if (axis.log) {  // faint 2x and 5x minor gridlines between decades
    for (size_t k = 0; k + 1 < axis.ticks.size(); ++k)
      for (double m : {2.0, 5.0}) {
        const double y = y_of(axis.ticks[k] * m);
        s += "<line x1=\"" + num(left) + "\" x2=\"" + num(left + pw) + "\" y1=\"" + num(y) +
             "\" y2=\"" + num(y) + "\" stroke=\"#f1f1f1\" stroke-width=\"1\"/>";
      }
    s += "\n";
  }
  s += "</g>\n";
  s += "<text transform=\"translate(18," + num(top + ph / 2) +
       ") rotate(-90)\" text-anchor=\"middle\" font-size=\"13\" fill=\"#222\">" +
       html_escape(chart.y_label) + "</text>\n";

  // Bars.
  const size_t ng = std::max<size_t>(1, chart.groups.size());
  const double gw = pw / static_cast<double>(ng);
  auto series_index = [&](const std::string& name) {
    for (size_t i = 0; i < chart.series.size(); ++i)
      if (chart.series[i] == name) return i;
    return chart.series.size();
  };
  s += "<g class=\"bars\">\n";
  for (size_t gi = 0; gi < chart.groups.size(); ++gi) {
    const auto& g = chart.groups[gi];
    const double gx = left + gw * static_cast<double>(gi);
    const size_t nb = std::max<size_t>(1, g.bars.size());
    const double bw = std::min(gw * 0.78 / static_cast<double>(nb), 70.0);
    const double x0 = gx + (gw - bw * static_cast<double>(nb)) / 2;
    for (size_t bi = 0; bi < g.bars.size(); ++bi) {
      const Bar& b = g.bars[bi];
      const double x = x0 + bw * static_cast<double>(bi);
      const double cx = x + bw / 2;
      if (!b.value) {
        if (!b.missing_text.empty())
          // Upright along the slot, so it never runs into the neighbouring bars.
          s += "<text transform=\"translate(" + num(cx + 3.5) + "," + num(base_y - 5) +
               ") rotate(-90)\" font-size=\"10.5\" fill=\"#a33\">" + html_escape(b.missing_text) +
               "</text>\n";
        continue;
      }
      const double v = *b.value;
      const double y = y_of(v);
      const double y_base = axis.log ? top + ph : base_y;
      const double bar_top = std::min(y, y_base), bar_h = std::fabs(y_base - y);
      s += "<rect x=\"" + num(x + 1) + "\" y=\"" + num(bar_top) + "\" width=\"" + num(bw - 2) +
           "\" height=\"" + num(bar_h) + "\" fill=\"" +
           series_color(b.series, series_index(b.series)) + "\"><title>" +
           html_escape(g.supergroup + (g.supergroup.empty() ? "" : "/") + g.label + " " + b.series +
                       ": " + format_number(v) +
                       (b.error ? " \xC2\xB1 " + format_number(*b.error) : "")) +
           "</title></rect>\n";
      double label_y = std::min(y, y_base) - 4;
      if (b.error && *b.error > 0) {
        const double y_hi = y_of(v + *b.error);
        const double y_lo = y_of(v - *b.error);  // clamps to the axis when <= lo
        const double cap = std::min(bw * 0.25, 8.0);
        s += "<path d=\"M" + num(cx) + " " + num(y_hi) + "V" + num(y_lo) + "M" + num(cx - cap) +
             " " + num(y_hi) + "H" + num(cx + cap) + "M" + num(cx - cap) + " " + num(y_lo) + "H" +
             num(cx + cap) + "\" stroke=\"#222\" stroke-width=\"1.2\" fill=\"none\"/>\n";
        label_y = std::min(label_y, y_hi - 4);
      }
      if (bw >= 30)
        s += "<text x=\"" + num(cx) + "\" y=\"" + num(label_y) +
             "\" font-size=\"10.5\" fill=\"#333\" text-anchor=\"middle\">" +
             html_escape(format_number(v)) + "</text>\n";
    }
  }
  s += "</g>\n";

  // Axis line and the group labels: sizes, then workloads centred under their run.
  s += "<line x1=\"" + num(left) + "\" x2=\"" + num(left) + "\" y1=\"" + num(top) + "\" y2=\"" +
       num(top + ph) + "\" stroke=\"#888\"/>\n";
  s += "<line x1=\"" + num(left) + "\" x2=\"" + num(left + pw) + "\" y1=\"" + num(top + ph) +
       "\" y2=\"" + num(top + ph) + "\" stroke=\"#888\"/>\n";
  s += "<g class=\"labels\" text-anchor=\"middle\" fill=\"#222\">\n";
  for (size_t gi = 0; gi < chart.groups.size(); ++gi) {
    const double cx = left + gw * (static_cast<double>(gi) + 0.5);
    s += "<text x=\"" + num(cx) + "\" y=\"" + num(top + ph + 18) + "\" font-size=\"12\">" +
         html_escape(chart.groups[gi].label) + "</text>\n";
  }
  for (size_t gi = 0; gi < chart.groups.size();) {
    size_t end = gi;
    while (end < chart.groups.size() && chart.groups[end].supergroup == chart.groups[gi].supergroup)
      ++end;
    const double x_start = left + gw * static_cast<double>(gi);
    const double x_end = left + gw * static_cast<double>(end);
    if (!chart.groups[gi].supergroup.empty()) {
      s += "<text x=\"" + num((x_start + x_end) / 2) + "\" y=\"" + num(top + ph + 42) +
           "\" font-size=\"13\" font-weight=\"bold\">" + html_escape(chart.groups[gi].supergroup) +
           "</text>\n";
      s += "<path d=\"M" + num(x_start + 6) + " " + num(top + ph + 26) + "H" + num(x_end - 6) +
           "\" stroke=\"#bbb\"/>\n";
    }
    if (gi > 0)
      s += "<line x1=\"" + num(x_start) + "\" x2=\"" + num(x_start) + "\" y1=\"" + num(top) +
           "\" y2=\"" + num(top + ph + 48) + "\" stroke=\"#ccc\" stroke-dasharray=\"4 3\"/>\n";
    gi = end;
  }
  s += "</g>\n</svg>\n";
  return s;
}

}  // namespace edp::report
