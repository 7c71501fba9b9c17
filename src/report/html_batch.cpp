// The batch study's section (DESIGN §9.2, seed 001): per-sample time and
// energy against the batch size N on log-log axes, one line per device, the
// crossover N marked, the crossover per workload and size in words, and the
// per-sample values in a pivot (per workload and size, N × device).
#include <map>

#include "report/columns.h"
#include "report/html_escape.h"
#include "report/html_sections.h"
#include "report/html_util.h"
#include "report/pivot_table.h"
#include "report/recommend.h"
#include "report/svg_line_chart.h"

namespace edp::report {
namespace {

using namespace html;

struct PerSample {
  std::string stem, title, unit_label;  // "time_per_sample_s", "Time per sample", "s"
};

std::string slug(std::string s) {
  for (char& c : s)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))) c = '-';
  return s;
}

std::optional<VerticalMarker> marker_of(const Crossover& c) {
  if (c.kind != CrossoverKind::gpu_from && c.kind != CrossoverKind::cpu_from) return std::nullopt;
  VerticalMarker m;
  m.x = static_cast<double>(*c.n);
  m.label = std::string(c.kind == CrossoverKind::gpu_from ? "GPU" : "CPU") +
            " from N = " + std::to_string(*c.n);
  return m;
}

}  // namespace

std::string render_batch_section(const ReportData& rows) {
  const CsvTable& t = rows.results;
  if (t.rows.empty()) return "";

  bool energy = false;
  std::vector<std::pair<std::string, std::string>> groups;  // (workload, size)
  std::vector<std::string> devices;
  for (size_t r = 0; r < t.rows.size(); ++r) {
    const auto g = std::make_pair(t.get(r, col::workload), t.get(r, col::size));
    if (std::find(groups.begin(), groups.end(), g) == groups.end()) groups.push_back(g);
    add_unique(devices, t.get(r, col::device));
    if (t.get(r, col::status) == "ok" && number(t.get(r, col::energy_per_sample_j_mean)))
      energy = true;
  }
  std::vector<PerSample> metrics{{"time_per_sample_s", "Time per sample", "s"}};
  if (energy) metrics.push_back({"energy_per_sample_j", "Energy per sample", "J"});

  RecommendOptions options;
  const auto crossovers = batch_crossovers(t, options);
  auto crossover_of = [&](const std::string& w, const std::string& s) -> const BatchCrossover* {
    for (const auto& c : crossovers)
      if (c.workload == w && c.size == s) return &c;
    return nullptr;
  };

  std::string h = "<h2 id=\"batch\">Batch size: per-sample cost against N, CPU against GPU</h2>\n";
  h += "<p>The MLP programs at the layer shapes of each size with the batch size N swept (seed "
       "001). Per sample = per run / (N \xC3\x97 iterations). The dashed line marks the crossover: "
       "the smallest N from which the GPU (or the CPU) wins at every larger N.</p>\n";
  if (!energy)
    h +=
        "<p class=\"note\">Energy was not measured in the batch study: time per sample only.</p>\n";

  // The crossover in words.
  h += "<table class=\"crossover\">\n<tr><th>Workload</th><th>Size</th><th>By time per sample</th>"
       "<th>By energy per sample</th></tr>\n";
  for (const auto& c : crossovers)
    h += "<tr><td>" + html_escape(c.workload) + "</td><td>" + html_escape(c.size) + "</td><td>" +
         html_escape(crossover_text(c.by_time)) + "</td><td>" +
         html_escape(c.by_energy ? crossover_text(*c.by_energy) : std::string("not measured")) +
         "</td></tr>\n";
  h += "</table>\n";

  for (const auto& [w, s] : groups) {
    const BatchCrossover* cross = crossover_of(w, s);
    h += "<h3>" + html_escape(w + "/" + s) + "</h3>\n<div class=\"pair\">\n";
    for (const auto& m : metrics) {
      LineChart chart;
      chart.id = "fig-batch-" + slug(w) + "-" + slug(s) + "-" + m.stem;
      chart.title = m.title + ": " + w + "/" + s;
      chart.x_label = "batch size N";
      chart.y_label = m.title + " (" + m.unit_label + ")";
      for (const auto& dev : devices) {
        LineSeries series;
        series.name = dev;
        for (size_t r = 0; r < t.rows.size(); ++r) {
          if (t.get(r, col::workload) != w || t.get(r, col::size) != s ||
              t.get(r, col::device) != dev || t.get(r, col::status) != "ok")
            continue;
          const auto n = number(t.get(r, col::n));
          const auto y = number(t.get(r, m.stem + "_mean"));
          if (!n || !y) continue;
          series.points.push_back({*n, *y, number(t.get(r, m.stem + "_ci95")), ""});
        }
        std::sort(series.points.begin(), series.points.end(),
                  [](const LinePoint& a, const LinePoint& b) { return a.x < b.x; });
        if (!series.points.empty()) chart.series.push_back(std::move(series));
      }
      if (cross) {
        const auto& c = m.stem == "time_per_sample_s" ? std::optional<Crossover>(cross->by_time)
                                                      : cross->by_energy;
        if (c)
          if (auto marker = marker_of(*c)) chart.markers.push_back(*marker);
      }
      const std::string svg = render_line_chart_svg(chart);
      if (!svg.empty()) h += "<figure>" + svg + "</figure>\n";
    }
    h += "</div>\n";
  }

  // The numbers: per workload and size, N × device.
  h += "<details><summary>Per-sample values (mean \xC2\xB1 95% CI)</summary>\n";
  for (const auto& m : metrics) {
    PivotSpec spec{
        {col::workload, col::size}, {col::n}, col::device, m.stem + "_mean", m.stem + "_ci95"};
    for (const auto& p : make_pivots(t, spec)) {
      Pivot named = p;
      named.label = m.title + ": " + p.label;
      h += render_pivot_html(named, spec, "N");
    }
  }
  h += "</details>\n";
  return h;
}

}  // namespace edp::report
