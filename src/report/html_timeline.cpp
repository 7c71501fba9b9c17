// The timeline section (DESIGN §5 samples.csv, power.timeline): for each
// configuration (key and part, as in runs.csv) its median run's power over
// time on the total rails, as read against lag-corrected, with the window's
// edges and the idle baseline the run used. From DIR/samples.csv, runs.csv
// and context.json alone; "" when samples.csv is absent.

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <set>
#include <tuple>

#include "common/safe_file.h"
#include "common/text.h"
#include "report/csv.h"
#include "report/html_escape.h"
#include "report/html_sections.h"
#include "report/html_util.h"
#include "report/samples_csv.h"
#include "report/svg_chart.h"
#include "report/svg_time_chart.h"

namespace edp::report {
namespace {

using namespace html;

// Charts drawn at most; a note says how many were left out.
constexpr size_t kMaxCharts = 60;

using RunId = std::tuple<std::string, std::string, int>;  // key, workload, run

struct Chosen {
  RunId id;
  double window_s = NAN;    // end - start on the monotonic clock
  double baseline_w = NAN;  // (energy - dynamic energy) / time: the baseline the run used
  double energy_j = NAN;
  size_t runs = 0;
};

struct Curve {
  std::vector<double> t_s;
  std::map<std::string, std::vector<std::pair<double, double>>> rails;  // rail -> (raw, corrected)
};

double number_field(const CsvTable& t, size_t r, const std::string& name) {
  const auto v = number(t.get(r, name));
  return v ? *v : NAN;
}

// A run's number: a count up to a million (runs.csv's and samples.csv's
// `run`); anything else names no run (it was cast to int whatever it held).
std::optional<int> run_number(const std::string& text) {
  const auto n = parse_count(text);
  if (!n || *n > 1000000) return std::nullopt;
  return static_cast<int>(*n);
}

// Per configuration the run of median energy (the lower one of an even
// count; by time when no run has energy).
std::vector<Chosen> median_runs(const CsvTable& runs) {
  std::map<std::pair<std::string, std::string>, std::vector<size_t>> groups;
  std::vector<std::pair<std::string, std::string>> order;
  for (size_t r = 0; r < runs.rows.size(); ++r) {
    const auto g = std::make_pair(runs.get(r, "key"), runs.get(r, "workload"));
    if (!run_number(runs.get(r, "run"))) continue;
    if (!groups.count(g)) order.push_back(g);
    groups[g].push_back(r);
  }
  std::vector<Chosen> out;
  for (const auto& g : order) {
    std::vector<size_t> rows = groups[g];
    const bool by_energy = std::any_of(rows.begin(), rows.end(), [&](size_t r) {
      return std::isfinite(number_field(runs, r, "energy_j"));
    });
    const std::string metric = by_energy ? "energy_j" : "time_s";
    rows.erase(
        std::remove_if(rows.begin(), rows.end(),
                       [&](size_t r) { return !std::isfinite(number_field(runs, r, metric)); }),
        rows.end());
    if (rows.empty()) continue;
    std::sort(rows.begin(), rows.end(), [&](size_t a, size_t b) {
      return number_field(runs, a, metric) < number_field(runs, b, metric);
    });
    const size_t r = rows[(rows.size() - 1) / 2];
    Chosen c;
    c.id = RunId{g.first, g.second, *run_number(runs.get(r, "run"))};
    c.window_s =
        number_field(runs, r, "end_monotonic_s") - number_field(runs, r, "start_monotonic_s");
    const double e = number_field(runs, r, "energy_j"),
                 de = number_field(runs, r, "dynamic_energy_j");
    const double t = number_field(runs, r, "time_s");
    c.energy_j = e;
    if (t > 0) c.baseline_w = (e - de) / t;
    c.runs = groups[g].size();
    out.push_back(c);
  }
  return out;
}

// A rail's power beyond this is no board's.
constexpr double kMaxPlausibleW = 1e6;

// samples.csv's text through the one reader of untrusted files (a link, a
// FIFO or a file over samples.csv's cap is refused), else "" with why.
std::string read_samples(const std::string& path, std::string* why) {
  try {
    return read_untrusted_file_if_present(path, file_kind::samples_csv).value_or("");
  } catch (const std::exception& e) {
    *why = std::string(e.what()) + "; not drawn";
    return "";
  }
}

// The rows of the chosen runs, point by point. Records are split at line
// ends outside quotes; a torn last line is ignored.
std::map<RunId, Curve> read_curves(const std::string& text, const std::set<RunId>& wanted,
                                   std::string* why) {
  std::map<RunId, Curve> curves;
  size_t pos = 0, line = 0;
  bool header = true;
  while (pos < text.size()) {
    bool quoted = false;
    size_t end = pos;
    while (end < text.size() && (text[end] != '\n' || quoted)) {
      if (text[end] == '"') quoted = !quoted;
      ++end;
    }
    if (end >= text.size()) break;
    const std::string record = text.substr(pos, end + 1 - pos);
    pos = end + 1;
    line += 1 + static_cast<size_t>(std::count(record.begin(), record.end() - 1, '\n'));
    std::vector<std::string> f;
    try {
      f = parse_csv_record(record, "samples.csv");
    } catch (const std::exception& e) {
      *why = e.what();
      return {};
    }
    if (header) {
      header = false;
      if (f != samples_columns()) {
        *why = "samples.csv has other columns than " + join(samples_columns(), ",");
        return {};
      }
      continue;
    }
    if (f.size() != samples_columns().size()) continue;
    const auto run = run_number(f[3]);
    const auto t = number(f[4]);
    if (!run || !t) continue;
    const RunId id{f[1], f[2], *run};
    if (!wanted.count(id)) continue;
    Curve& c = curves[id];
    if (c.t_s.empty() || c.t_s.back() != *t) c.t_s.push_back(*t);
    // A power that is not a number, or beyond any board's (a megawatt),
    // is no sensor's: nothing is drawn from the file (1e308 W was drawn
    // pinned to the top of a 1 W axis).
    for (const size_t i : {size_t{6}, size_t{7}}) {
      if (f[i].empty()) continue;
      const auto w = number(f[i]);
      if (!w || std::fabs(*w) > kMaxPlausibleW) {
        *why = "samples.csv line " + std::to_string(line) + ": " + samples_columns()[i] + " = '" +
               escaped_excerpt(f[i], 40) + "' is " +
               (w ? "beyond " + fmt("%g", kMaxPlausibleW) + " W" : std::string("not a number")) +
               " (no sensor writes it: the file was edited or is corrupt)";
        return {};
      }
    }
    const auto raw = number(f[6]), corrected = number(f[7]);
    auto& points = c.rails[f[5]];
    points.resize(c.t_s.size(), {NAN, NAN});
    points.back() = {raw ? *raw : NAN, corrected ? *corrected : NAN};
  }
  return curves;
}

// The total rails from context.json ("VDD_IN" or "package-0+gpu0"); empty
// when it does not say.
std::vector<std::string> total_rails(const ReportData& d) {
  if (!d.context) return {};
  const JsonValue* v = d.context->at({"power", "total_rails"});
  if (!v || v->type != JsonValue::Type::string || v->string.empty()) return {};
  std::vector<std::string> rails;
  size_t start = 0;
  for (size_t plus; (plus = v->string.find('+', start)) != std::string::npos; start = plus + 1)
    rails.push_back(v->string.substr(start, plus - start));
  rails.push_back(v->string.substr(start));
  return rails;
}

// Sum over `rails` at each point (NaN where one is missing).
std::vector<std::pair<double, double>> sum_points(const Curve& c,
                                                  const std::vector<std::string>& rails,
                                                  bool corrected) {
  std::vector<std::pair<double, double>> out;
  for (size_t i = 0; i < c.t_s.size(); ++i) {
    double sum = 0;
    for (const auto& rail : rails) {
      const auto it = c.rails.find(rail);
      if (it == c.rails.end() || i >= it->second.size()) {
        sum = NAN;
        break;
      }
      sum += corrected ? it->second[i].second : it->second[i].first;
    }
    out.emplace_back(c.t_s[i], sum);
  }
  return out;
}

}  // namespace

std::string render_timeline_section(const ReportData& data) {
  const std::string path = data.dir + "/samples.csv";
  std::string why;
  const std::string text = read_samples(path, &why);
  if (text.empty() && why.empty()) return "";
  std::string h = "<section id=\"timeline\">\n<h2>Power over time</h2>\n";
  h += "<p>Each configuration's median run (by energy) from <code>samples.csv</code>: power on "
       "the total rails as the sensor published it, and lag-corrected (each value moved back "
       "to the time it describes, DESIGN §4.2), between the window's edges, with the idle "
       "baseline the run's dynamic energy used.</p>\n";
  if (!data.runs) why = "runs.csv is missing: the median runs are not known";
  if (!why.empty()) return h + "<p class=\"note\">" + html_escape(why) + "</p>\n</section>\n";

  if (data.context) {
    const JsonValue* full = data.context->at({"power", "timeline", "full_at"});
    const JsonValue* cap = data.context->at({"power", "timeline", "max_rows"});
    if (full && full->type == JsonValue::Type::string && !full->string.empty())
      h += "<p class=\"note\">samples.csv reached its cap of " +
           html_escape(cap ? cap->to_text() : "?") + " rows (power.timeline_max_rows) at " +
           html_escape(full->string) + ": that run and every later one have no timeline.</p>\n";
  }

  const std::vector<Chosen> chosen = median_runs(*data.runs);
  std::set<RunId> wanted;
  for (const auto& c : chosen) wanted.insert(c.id);
  const std::map<RunId, Curve> curves = read_curves(text, wanted, &why);
  if (!why.empty()) return h + "<p class=\"note\">" + html_escape(why) + "</p>\n</section>\n";

  const std::vector<std::string> totals = total_rails(data);
  size_t drawn = 0, missing = 0;
  h += "<div class=\"charts\">\n";
  for (const auto& c : chosen) {
    const auto it = curves.find(c.id);
    if (it == curves.end()) {
      ++missing;
      continue;
    }
    if (drawn == kMaxCharts) {
      ++missing;
      continue;
    }
    const Curve& curve = it->second;
    std::vector<std::string> rails = totals;
    for (const auto& r : rails)
      if (!curve.rails.count(r)) rails.clear();
    std::string rails_text = join(rails, "+");
    if (rails.empty() && !curve.rails.empty()) {  // no total rails known: the first rail
      rails = {curve.rails.begin()->first};
      rails_text = rails.front();
    }
    const auto& [key, workload, run] = c.id;
    TimeChart chart;
    chart.id = "timeline-" + std::to_string(drawn);
    chart.title = key + (key.find(workload) == std::string::npos ? " / " + workload : "") +
                  ", run " + std::to_string(run) + " of " + std::to_string(c.runs);
    chart.x_label = "time from the window's start (s)";
    chart.y_label = rails_text + " (W)";
    chart.series.push_back({"as read", "#4c72b0", false, sum_points(curve, rails, false)});
    chart.series.push_back({"lag-corrected", "#dd8452", false, sum_points(curve, rails, true)});
    chart.markers.push_back({0.0, "start", "#2a7d2a"});
    if (std::isfinite(c.window_s))
      chart.markers.push_back({c.window_s, "end " + format_number(c.window_s) + " s", "#c44e52"});
    if (std::isfinite(c.baseline_w))
      chart.levels.push_back({c.baseline_w, "idle " + format_number(c.baseline_w) + " W"});
    const std::string svg = render_time_chart_svg(chart);
    if (svg.empty()) {
      ++missing;
      continue;
    }
    h += "<figure>" + svg + "</figure>\n";
    ++drawn;
  }
  h += "</div>\n";
  if (missing > 0)
    h += "<p class=\"note\">" + std::to_string(missing) +
         " configuration(s) not drawn: no samples for their median run (the cap, a resumed "
         "sweep), or more than " +
         std::to_string(kMaxCharts) + " charts.</p>\n";
  return h + "</section>\n";
}

}  // namespace edp::report
