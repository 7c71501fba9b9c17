// The ops study's section (DESIGN §9.1, seed 000), from DIR/ops.csv alone: a
// roofline per device (FLOP/byte against GFLOP/s under the nominal and the
// measured ceilings), throughput against size per op (CPU against GPU, warm
// and cold), every row in a table, and the speed-up between backend modes.
#include <algorithm>
#include <cmath>
#include <map>

#include "common/errors.h"
#include "common/safe_file.h"
#include "report/columns.h"
#include "report/html_escape.h"
#include "report/html_sections.h"
#include "report/html_util.h"
#include "report/ops_csv.h"
#include "report/pivot_table.h"
#include "report/recommend.h"
#include "report/speedup.h"
#include "report/svg_chart.h"
#include "report/svg_line_chart.h"

namespace edp::report {
namespace {

using namespace html;

// "64 MiB", "1 GiB", "n = 1024", "" (fma_peak).
std::string size_label(const CsvTable& t, size_t r) {
  if (auto b = number(t.get(r, col::bytes)); b && *b > 0) {
    const double gib = 1024.0 * 1024 * 1024, mib = 1024.0 * 1024;
    if (*b >= gib && std::fmod(*b, gib) == 0) return fmt("%.0f", *b / gib) + " GiB";
    if (*b >= mib && std::fmod(*b, mib) == 0) return fmt("%.0f", *b / mib) + " MiB";
    return format_number(*b / 1e6, 3) + " MB";
  }
  if (auto n = number(t.get(r, col::n)); n && *n > 0) return "n = " + fmt("%.0f", *n);
  return "";
}

// What the throughput chart plots for an op: GFLOP/s for the compute-heavy
// ones, GB/s for the streaming ones.
bool compute_op(const std::string& op) { return op == "gemm" || op == "fma_peak"; }

std::string series_name(const CsvTable& t, size_t r) {
  const std::string v = t.get(r, col::variant);
  return t.get(r, col::device) + (v == "cold" ? " (cold)" : "");
}

class OpsSection {
 public:
  explicit OpsSection(CsvTable t) : t_(std::move(t)) {
    for (size_t r = 0; r < t_.rows.size(); ++r) {
      add_unique(ops_, t_.get(r, col::op));
      add_unique(devices_, t_.get(r, col::device));
      if (t_.get(r, col::status) == "ok" && number(t_.get(r, col::energy_per_op_j))) energy_ = true;
    }
  }

  std::string render() {
    std::string h =
        "<h2 id=\"ops\">Operators: throughput, roofline and energy per operation</h2>\n";
    h += "<p>Elementary operations (seed 000) over working-set sizes, the median of the runs "
         "with its 95% CI. GB/s counts the bytes each operation must move; percent of peak is "
         "against the nominal peak of ops.csv.</p>\n";
    h += rooflines() + throughput() + table() + speedups();
    return h;
  }

 private:
  bool ok(size_t r) const { return t_.get(r, col::status) == "ok"; }

  std::string rooflines() {
    std::string h = "<h3>Roofline</h3>\n<div class=\"pair\">\n";
    for (const auto& dev : devices_) {
      LineChart chart;
      chart.id = "fig-roofline-" + dev;
      chart.title = "Roofline: " + dev;
      chart.x_label = "arithmetic intensity (FLOP/byte)";
      chart.y_label = "GFLOP/s";
      double peak_gflops = 0, peak_gbs = 0, fma_gflops = 0, copy_gbs = 0;
      double ai_lo = HUGE_VAL, ai_hi = 0;
      std::map<std::string, LineSeries> by_op;
      for (size_t r = 0; r < t_.rows.size(); ++r) {
        if (t_.get(r, col::device) != dev || !ok(r)) continue;
        peak_gflops = std::max(peak_gflops, number(t_.get(r, col::peak_gflops)).value_or(0));
        peak_gbs = std::max(peak_gbs, number(t_.get(r, col::peak_gbs)).value_or(0));
        const std::string op = t_.get(r, col::op);
        const auto gflops = number(t_.get(r, col::gflops));
        if (op == "fma_peak" && gflops) fma_gflops = std::max(fma_gflops, *gflops);
        if (op == "copy" && t_.get(r, col::variant) != "cold")
          copy_gbs = std::max(copy_gbs, number(t_.get(r, col::gbs)).value_or(0));
        // fma_peak is the measured ceiling, not a point under it.
        if (t_.get(r, col::variant) == "cold" || op == "fma_peak") continue;
        const auto flop = number(t_.get(r, col::flop));
        const auto bytes = number(t_.get(r, col::bytes_moved));
        if (!flop || !bytes || *flop <= 0 || *bytes <= 0 || !gflops || *gflops <= 0) continue;
        const double ai = *flop / *bytes;
        ai_lo = std::min(ai_lo, ai);
        ai_hi = std::max(ai_hi, ai);
        LineSeries& s = by_op[op];
        s.name = op;
        s.line = false;
        s.points.push_back({ai, *gflops, std::nullopt, ""});
      }
      if (by_op.empty()) continue;
      const double x_lo = ai_lo / 4, x_hi = ai_hi * 4;
      auto ceiling = [&](double gflops, double gbs, const std::string& name,
                         const std::string& color) {
        LineSeries c;
        c.name = name;
        c.color = color;
        c.dashed = true;
        c.markers = false;
        const double ridge = gflops / gbs;
        c.points.push_back({x_lo, std::min(gflops, gbs * x_lo), std::nullopt, ""});
        if (ridge > x_lo && ridge < x_hi) c.points.push_back({ridge, gflops, std::nullopt, ""});
        c.points.push_back({x_hi, std::min(gflops, gbs * x_hi), std::nullopt,
                            name + ": " + format_number(gflops, 3) + " GFLOP/s, " +
                                format_number(gbs, 3) + " GB/s"});
        chart.series.push_back(c);
      };
      if (peak_gflops > 0 && peak_gbs > 0) ceiling(peak_gflops, peak_gbs, "nominal", "#888888");
      if (fma_gflops > 0 && (copy_gbs > 0 || peak_gbs > 0))
        ceiling(fma_gflops, copy_gbs > 0 ? copy_gbs : peak_gbs, "measured", "#c44e52");
      for (auto& [op, s] : by_op) chart.series.push_back(std::move(s));
      const std::string svg = render_line_chart_svg(chart);
      if (!svg.empty()) h += "<figure>" + svg + "</figure>\n";
    }
    h += "</div>\n<p class=\"note\">Ceilings: <i>nominal</i> from peak_gflops and peak_gbs; "
         "<i>measured</i> from the fma_peak rate and the warm copy bandwidth, where ops.csv has "
         "them. An operation under the slanted part is memory-bound.</p>\n";
    return h;
  }

  std::string throughput() {
    std::string h = "<h3>Throughput against size</h3>\n<div class=\"pair\">\n";
    for (const auto& op : ops_) {
      if (op == "fma_peak") continue;
      const bool compute = compute_op(op);
      LineChart chart;
      chart.id = "fig-ops-" + op;
      chart.title = op;
      chart.width = 380;
      chart.height = 300;
      chart.x_label = compute ? "n" : "working set (bytes)";
      chart.y_label = compute ? "GFLOP/s" : "GB/s";
      std::vector<LineSeries> series;
      for (size_t r = 0; r < t_.rows.size(); ++r) {
        if (t_.get(r, col::op) != op || !ok(r)) continue;
        const auto x = number(t_.get(r, compute ? col::n : col::bytes));
        const auto y = number(t_.get(r, compute ? col::gflops : col::gbs));
        if (!x || !y) continue;
        const std::string name = series_name(t_, r);
        auto it = std::find_if(series.begin(), series.end(),
                               [&](const LineSeries& s) { return s.name == name; });
        if (it == series.end()) {
          series.push_back(LineSeries{});
          it = series.end() - 1;
          it->name = name;
          it->dashed = t_.get(r, col::variant) == "cold";
          it->color = series_color(t_.get(r, col::device), series.size() - 1);
        }
        it->points.push_back({*x, *y, std::nullopt, ""});
      }
      for (auto& s : series)
        std::sort(s.points.begin(), s.points.end(),
                  [](const LinePoint& a, const LinePoint& b) { return a.x < b.x; });
      chart.series = std::move(series);
      const std::string svg = render_line_chart_svg(chart);
      if (!svg.empty()) h += "<figure>" + svg + "</figure>\n";
    }
    return h + "</div>\n";
  }

  std::string table() {
    const bool has_variant = t_.column(col::variant) >= 0;
    const bool has_measured = t_.column(col::percent_of_measured_peak) >= 0;
    std::string h = "<h3>Every operation</h3>\n<div class=\"wide\"><table class=\"ops\">\n<tr>";
    std::vector<std::string> head{"Op", "Size"};
    if (has_variant) head.push_back("Variant");
    head.insert(head.end(), {"Device", "Status", "Time (median \xC2\xB1 CI95)", "GFLOP/s", "GB/s",
                             "% of peak"});
    if (has_measured) head.push_back("% of measured peak");
    head.push_back("Bound");
    if (energy_) head.insert(head.end(), {"Energy per op", "pJ/FLOP", "Power"});
    head.push_back("Note");
    for (const auto& c : head) h += "<th>" + html_escape(c) + "</th>";
    h += "</tr>\n";
    auto cell = [](const std::string& s) {
      return "<td class=\"num\">" + html_escape(s) + "</td>";
    };
    for (size_t r = 0; r < t_.rows.size(); ++r) {
      auto plain = [&](const std::string& col, int digits = 3) {
        const auto v = number(t_.get(r, col));
        return cell(v ? format_number(*v, digits) : "");
      };
      auto unit = [&](const std::string& col) {
        const auto v = number(t_.get(r, col));
        return cell(v ? format_quantity(*v, col) : "");
      };
      const std::string status = t_.get(r, col::status);
      h += "<tr class=\"" + html_escape(status) + "\"><td>" + html_escape(t_.get(r, col::op)) +
           "</td><td class=\"nowrap\">" + html_escape(size_label(t_, r)) + "</td>";
      if (has_variant) h += "<td>" + html_escape(t_.get(r, col::variant)) + "</td>";
      h += "<td>" + html_escape(t_.get(r, col::device)) + "</td><td>" + html_escape(status) +
           "</td>";
      PivotCell c;
      c.status = status;
      if (status == "ok") {
        c.mean = number(t_.get(r, col::time_s_median));
        c.ci95 = number(t_.get(r, col::time_s_ci95));
      }
      h += cell(format_cell(c, col::time_s_median)) + plain(col::gflops) + plain(col::gbs) +
           plain(col::percent_of_peak);
      if (has_measured) h += plain(col::percent_of_measured_peak);
      h += "<td>" + html_escape(t_.get(r, col::bound)) + "</td>";
      if (energy_)
        h += unit(col::energy_per_op_j) + plain(col::pj_per_flop) + unit(col::power_w_mean);
      h += "<td class=\"note\">" + html_escape(t_.get(r, col::note)) + "</td></tr>\n";
    }
    return h + "</table></div>\n";
  }

  std::string speedups() {
    std::vector<SpeedupRow> rows;
    for (size_t r = 0; r < t_.rows.size(); ++r) {
      if (!ok(r)) continue;
      const auto time = number(t_.get(r, col::time_s_median));
      if (!time) continue;
      std::string label = t_.get(r, col::op);
      const std::string size = size_label(t_, r);
      if (!size.empty()) label += " " + size;
      if (!t_.get(r, col::variant).empty()) label += " " + t_.get(r, col::variant);
      rows.push_back({label, device_kind(t_.get(r, col::device)), *time});
    }
    const SpeedupTable table = speedup_table(rows);
    if (table.pairs.empty()) return "";
    return "<h3>Speed-up between backend modes</h3>\n<p class=\"note\">Median time of the "
           "first mode divided by the second's, per operation and size (seed 003's table).</p>\n" +
           render_speedup_html(table, "Operation");
  }

  CsvTable t_;
  std::vector<std::string> ops_, devices_;
  bool energy_ = false;
};

}  // namespace

std::string render_ops_section(const std::string& dir) {
  const std::string path = dir + "/ops.csv";
  if (dir.empty() || !path_present(path)) return "";
  CsvTable t;
  try {
    t = read_csv_file(path);
  } catch (const UsageError&) {
    throw;  // a link, FIFO or device: refused, not shown as unreadable
  } catch (const std::exception& e) {
    return "<h2 id=\"ops\">Operators</h2>\n<p class=\"notice\">ops.csv is unreadable: " +
           html_escape(e.what()) + "</p>\n";
  }
  if (t.rows.empty()) return "";
  try {
    check_ops_values(t, path);
  } catch (const UsageError& e) {  // a value no study writes: nothing drawn from it
    return "<h2 id=\"ops\">Operators</h2>\n<p class=\"notice\">" + html_escape(e.what()) + "</p>\n";
  }
  return OpsSection(std::move(t)).render();
}

}  // namespace edp::report
