// The deploy study's section (DESIGN §9.4, docs/deploy.md), from
// DIR/deploy.csv alone: per task, the hours on a charge against the request
// rate (log axis) of each device's best candidate, the rates where the
// choice changes device marked, and the same numbers at each decade in a
// table. The battery is a reference 10 Wh: hours scale with capacity, and
// `recommend --rate R --battery-wh W` answers for a given one.
#include <cmath>

#include "common/errors.h"
#include "common/safe_file.h"
#include "common/text.h"
#include "report/deploy_csv.h"
#include "report/deploy_recommend.h"
#include "report/html_escape.h"
#include "report/html_sections.h"
#include "report/svg_line_chart.h"

namespace edp::report {
namespace {

constexpr double kBatteryWh = 10;
constexpr double kLoHz = 1e-3, kHiHz = 1e3;

std::vector<double> log_rates(int per_decade) {
  std::vector<double> out;
  const int decades = static_cast<int>(std::lround(std::log10(kHiHz / kLoHz)));
  for (int i = 0; i <= decades * per_decade; ++i)
    out.push_back(kLoHz * std::pow(10.0, static_cast<double>(i) / per_decade));
  return out;
}

std::string hours_cell(double h) { return std::isfinite(h) ? fmt("%.3g", h) : "&ndash;"; }

std::string task_section(const std::vector<Candidate>& all, const std::string& task) {
  std::string h = "<h3>" + html_escape(task) + "</h3>\n";
  LineChart chart;
  chart.id = "fig-deploy-" + task;
  for (char& c : chart.id)
    if (c == '/' || c == ':') c = '-';
  chart.title = "Hours on a " + fmt("%g", kBatteryWh) + " Wh charge: " + task;
  chart.x_label = "requests per second (Poisson)";
  chart.y_label = "hours on a charge";
  for (const HoursCurve& curve :
       hours_curves(all, task, log_rates(8), Arrivals::poisson, kBatteryWh, std::nullopt)) {
    LineSeries s;
    s.name = curve.device;
    s.markers = false;
    for (size_t i = 0; i < curve.rates_hz.size(); ++i)
      if (std::isfinite(curve.hours[i]) && curve.hours[i] > 0)
        s.points.push_back({curve.rates_hz[i], curve.hours[i], std::nullopt, ""});
    chart.series.push_back(std::move(s));
  }
  std::vector<Candidate> mine;
  for (const auto& c : all)
    if (c.task == task) mine.push_back(c);
  const std::vector<RateCrossover> crossovers =
      rate_crossovers(mine, Arrivals::poisson, std::nullopt, kLoHz, kHiHz);
  for (const auto& x : crossovers)
    if (x.device_changes)
      chart.markers.push_back({x.rate_hz, fmt("%.3g", x.rate_hz) + "/s", "#c44e52"});
  h += render_line_chart_svg(chart);
  // The decades as a table, each device's best candidate.
  const std::vector<double> decades = log_rates(1);
  const auto curves = hours_curves(all, task, decades, Arrivals::poisson, kBatteryWh, std::nullopt);
  h += "<table class=\"deploy\">\n<tr><th>requests/s</th>";
  for (const auto& c : curves) h += "<th>" + html_escape(c.device) + " (h)</th>";
  h += "</tr>\n";
  for (size_t i = 0; i < decades.size(); ++i) {
    h += "<tr><td>" + fmt("%g", decades[i]) + "</td>";
    for (const auto& c : curves) h += "<td>" + hours_cell(c.hours[i]) + "</td>";
    h += "</tr>\n";
  }
  h += "</table>\n";
  if (crossovers.empty()) {
    h +=
        "<p>One choice from " + fmt("%g", kLoHz) + " to " + fmt("%g", kHiHz) + " requests/s.</p>\n";
  } else {
    h += "<ul>\n";
    for (const auto& x : crossovers)
      h += "<li>crossover at " + fmt("%.3g", x.rate_hz) + " requests/s: " + html_escape(x.from) +
           " below, " + html_escape(x.to) + " above" +
           (x.device_changes ? " (the device changes)" : "") + "</li>\n";
    h += "</ul>\n";
  }
  return h;
}

std::string watts_cell(const CsvTable& t, size_t r, const std::string& value,
                       const std::string& ci) {
  const auto v = parse_double(t.get(r, value));
  if (!v) return "&ndash;";
  const auto c = parse_double(t.get(r, ci));
  return fmt("%.4g", *v) + (c && *c > 0 ? " &plusmn; " + fmt("%.2g", *c) : "");
}

std::string error_cell(const CsvTable& t, size_t r, const std::string& column) {
  const auto e = parse_double(t.get(r, column));
  return e ? fmt("%+.1f", *e * 100) + "%" : "&ndash;";
}

// The open-loop checks (measure = check): the measured average power beside
// the model's prediction from the gaps the run realised and its expectation
// over the arrival process, with the realisation's requests against the
// expected count (docs/deploy.md, "Validation").
std::string checks_table(const CsvTable& t) {
  std::string rows;
  for (size_t r = 0; r < t.rows.size(); ++r) {
    if (t.get(r, "measure") != "check") continue;
    const std::string batch = t.get(r, "batch");
    const std::string item = deploy_task(t, r) + (batch.empty() ? "" : ", batch " + batch) + ", " +
                             t.get(r, "device") + (t.get(r, "state") == "host" ? ", release" : "");
    const std::string expected = t.get(r, "arrivals_expected");
    const auto arrivals = parse_double(t.get(r, "arrivals"));
    const auto expected_n = parse_double(expected);
    rows += "<tr><td>" + html_escape(item) + "</td><td>" + html_escape(t.get(r, "rate_hz")) +
            "</td><td>" + (arrivals ? fmt("%g", *arrivals) : "&ndash;") + " / " +
            (expected_n ? fmt("%.4g", *expected_n) : "&ndash;") + "</td><td>" +
            watts_cell(t, r, "power_w", "power_w_ci95") + "</td><td>" +
            watts_cell(t, r, "predicted_realised_w", "predicted_realised_w_ci95") + "</td><td>" +
            error_cell(t, r, "error_realised") + "</td><td>" +
            watts_cell(t, r, "predicted_w", "predicted_w_ci95") + "</td><td>" +
            error_cell(t, r, "error") + "</td><td>" + html_escape(t.get(r, "note")) +
            "</td></tr>\n";
  }
  if (rows.empty()) return "";
  return "<h3>The model against open-loop runs</h3>\n"
         "<p>Each check served requests at its rate for its length and measured the average "
         "power; the model predicts it from the gaps the run realised (its per-gap accounting) "
         "and as the expectation over the arrival process. A Poisson run's count and gaps "
         "scatter around the expectation; the prediction from the realised gaps does not.</p>\n"
         "<table class=\"deploy\">\n<tr><th>item</th><th>requests/s</th><th>arrivals / "
         "expected</th><th>measured W</th><th>predicted W (realised gaps)</th><th>error</th>"
         "<th>predicted W (expectation)</th><th>error</th><th>note</th></tr>\n" +
         rows + "</table>\n";
}

}  // namespace

std::string render_deploy_section(const std::string& dir) {
  const std::string path = dir + "/deploy.csv";
  if (dir.empty() || !path_present(path)) return "";
  const auto notice = [](const std::string& why) {
    return "<h2 id=\"deploy\">Battery life at a duty cycle</h2>\n<p class=\"notice\">" +
           html_escape(why) + "</p>\n";
  };
  CsvTable t;
  try {
    t = read_csv_file(path);
  } catch (const UsageError&) {
    throw;  // a link, FIFO or device: refused, not shown as unreadable
  } catch (const std::exception& e) {
    return notice("deploy.csv is unreadable: " + std::string(e.what()));
  }
  std::vector<Candidate> all;
  try {
    all = deploy_candidates(t, path);
    check_deploy_values(t, path);
  } catch (const UsageError& e) {  // columns missing or a value no study writes
    return notice(e.what());
  }
  if (all.empty()) return "";
  std::string h = "<h2 id=\"deploy\">Battery life at a duty cycle</h2>\n";
  h += "<p>Hours on a " + fmt("%g", kBatteryWh) +
       " Wh charge against the request rate, each device at its best batch size and context "
       "policy, from the duty-cycle model over deploy.csv's measurements (docs/deploy.md). "
       "Hours scale with the battery; <code>edpbench recommend DIR --rate R --battery-wh "
       "W</code> answers for one rate with a latency objective.</p>\n";
  for (const auto& task : deploy_tasks(all)) h += task_section(all, task);
  h += checks_table(t);
  return h;
}

}  // namespace edp::report
