// Operating points in one study's results.csv rows (the results section,
// study_view.h): per workload and size, time against energy for every
// (device, point), with the Pareto front joined, so the settings worth
// considering (faster or more frugal than every other) stand out. Shown only
// when the rows have more than one operating point.
#include <map>
#include <tuple>

#include "report/columns.h"
#include "report/html_escape.h"
#include "report/html_sections.h"
#include "report/html_util.h"
#include "report/pareto.h"
#include "report/recommend.h"
#include "report/svg_chart.h"
#include "report/svg_line_chart.h"

namespace edp::report {
namespace {

using namespace html;

struct Measured {
  std::string device, point;
  double time_s = 0, energy_j = 0;
};

}  // namespace

std::string render_points_section(const ReportData& rows, const std::string& tag) {
  const CsvTable& t = rows.results;
  std::vector<std::string> points, devices;
  using Group = std::pair<std::string, std::string>;
  std::vector<Group> order;
  std::map<Group, std::vector<Measured>> groups;
  for (size_t r = 0; r < t.rows.size(); ++r) {
    const std::string point = t.get(r, col::operating_point);
    add_unique(points, point);
    if (point.empty() || t.get(r, col::status) != "ok") continue;
    const auto time = number(t.get(r, col::time_s_mean));
    const auto energy = number(t.get(r, col::energy_j_mean));
    if (!time || !energy || *time <= 0 || *energy <= 0) continue;
    const Group g{t.get(r, col::workload), t.get(r, col::size)};
    auto [it, fresh] = groups.try_emplace(g);
    if (fresh) order.push_back(g);
    it->second.push_back({t.get(r, col::device), point, *time, *energy});
    add_unique(devices, t.get(r, col::device));
  }
  if (points.size() < 2 || groups.empty()) return "";

  const std::string title = "Operating points: time against energy";
  std::string h =
      "<h2>" + html_escape(tag.empty() ? title : title + " (" + tag + ")") +
      "</h2>\n<p>Every (device, operating point) "
      "of the sweep (" +
      html_escape(join(points)) +
      "), one chart per workload and size. The dashed line joins the <b>Pareto front</b>: the "
      "settings that no other is both faster and more frugal than. The fastest setting is often "
      "not the most energy-efficient; <code>edpbench recommend</code> picks among them.</p>\n"
      "<div class=\"pair\">\n";
  for (const auto& g : order) {
    const auto& ms = groups[g];
    LineChart chart;
    chart.id = "fig-points-" + g.first + "-" + g.second + (tag.empty() ? "" : "-" + tag);
    chart.title = g.first + " / " + g.second;
    chart.x_label = "time per run (s)";
    chart.y_label = "energy per run (J)";
    std::vector<XY> xy;
    for (const auto& m : ms) xy.push_back({m.time_s, m.energy_j});
    LineSeries front;
    front.name = "Pareto front";
    front.color = "#555555";
    front.dashed = true;
    front.markers = false;
    std::vector<std::string> on_front;
    for (size_t i : pareto_front(xy)) {
      front.points.push_back({ms[i].time_s, ms[i].energy_j, std::nullopt, ""});
      on_front.push_back(ms[i].device + " at " + ms[i].point);
    }
    chart.series.push_back(std::move(front));
    for (const auto& dev : devices) {
      LineSeries s;
      s.name = dev;
      s.line = false;
      for (const auto& m : ms)
        if (m.device == dev) s.points.push_back({m.time_s, m.energy_j, std::nullopt, m.point});
      if (!s.points.empty()) chart.series.push_back(std::move(s));
    }
    const std::string svg = render_line_chart_svg(chart);
    if (svg.empty()) continue;
    h += "<figure>\n" + svg + "<figcaption>" +
         html_escape(g.first + "/" + g.second + ": mean time and energy per run of each " +
                     "(device, operating point). On the Pareto front: " + join(on_front) + ".") +
         "</figcaption>\n</figure>\n";
  }
  return h + "</div>\n";
}

}  // namespace edp::report
