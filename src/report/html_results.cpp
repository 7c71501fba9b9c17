// The results section of the report (results_view, study_view.h): time,
// energy and EDP per workload and size (CPU against GPU), the
// recommendation, every configuration's numbers, and the speed-up between
// the backend modes that were measured. It draws one study's results.csv
// and runs.csv rows, whichever study wrote them (the mlp study's, the
// monitor API's).
#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

#include "report/columns.h"
#include "report/html_escape.h"
#include "report/html_sections.h"
#include "report/html_util.h"
#include "report/recommend.h"
#include "report/speedup.h"
#include "report/stats.h"
#include "report/svg_chart.h"

namespace edp::report {
namespace {

using namespace html;

struct Metric {
  std::string stem, title, y_label, unit;
};

const std::vector<Metric>& metrics() {
  static const std::vector<Metric> m{
      {col::time_s, "Time per run", "time per run (s)", "s"},
      {col::energy_j, "Energy per run", "energy per run (J)", "J"},
      {col::edp_js, "Energy-delay product per run", "EDP (J\xC2\xB7s)", "J\xC2\xB7s"}};
  return m;
}

class ResultsSection {
 public:
  // `rows`: one study's rows (study_view.h); `tag`: "" or the study's name,
  // which marks headings and ids when the page has several such sections.
  ResultsSection(const ReportData& rows, const std::string& tag) : d_(rows), tag_(tag) {
    const CsvTable& t = d_.results;
    for (size_t r = 0; r < t.rows.size(); ++r) {
      add_unique(workloads_, t.get(r, col::workload));
      add_unique(sizes_, t.get(r, col::size));
      add_unique(devices_, t.get(r, col::device));
      const std::string st = t.get(r, col::status);
      ++status_count_[st];
      if (st == "ok" && number(t.get(r, col::energy_j_mean))) energy_measured_ = true;
    }
    if (d_.runs) {
      const CsvTable& runs = *d_.runs;
      for (size_t r = 0; r < runs.rows.size(); ++r)
        run_rows_[{runs.get(r, col::workload), runs.get(r, col::size), runs.get(r, col::device)}]
            .push_back(r);
    }
  }

  std::string render() {
    if (d_.results.rows.empty()) return "";
    return figures() + recommendation() + results_table() + speedups();
  }

 private:
  using Key = std::tuple<std::string, std::string, std::string>;

  long find_row(const std::string& w, const std::string& s, const std::string& dev) const {
    long any = -1;
    const CsvTable& t = d_.results;
    for (size_t r = 0; r < t.rows.size(); ++r) {
      if (t.get(r, col::workload) != w || t.get(r, col::size) != s || t.get(r, col::device) != dev)
        continue;
      if (t.get(r, col::status) == "ok") return static_cast<long>(r);
      any = static_cast<long>(r);
    }
    return any;
  }

  // The CI of a metric: from results.csv, else from the runs in runs.csv.
  std::optional<double> ci_of(size_t r, const std::string& stem) const {
    if (auto ci = row_ci95(d_.results, r, stem)) return ci;
    const auto runs = run_values(r, stem);
    if (runs.size() >= 2) return ci95_half_width(runs);
    return std::nullopt;
  }

  std::vector<double> run_values(size_t r, const std::string& column) const {
    std::vector<double> out;
    if (!d_.runs) return out;
    const CsvTable& t = d_.results;
    const auto it =
        run_rows_.find({t.get(r, col::workload), t.get(r, col::size), t.get(r, col::device)});
    if (it == run_rows_.end()) return out;
    for (size_t k : it->second)
      if (auto v = number(d_.runs->get(k, column))) out.push_back(*v);
    return out;
  }

  std::string figures() {
    const CsvTable& t = d_.results;
    std::string h = "<h2>" +
                    html_escape(heading(energy_measured_ ? "Time, energy and EDP: CPU against GPU"
                                                         : "Time: CPU against GPU")) +
                    "</h2>\n";
    size_t ok_runs = 0;
    for (size_t r = 0; r < t.rows.size(); ++r)
      if (t.get(r, col::status) == "ok")
        ok_runs = std::max<size_t>(
            ok_runs, static_cast<size_t>(parse_count(t.get(r, col::runs)).value_or(0)));
    for (const Metric& m : metrics()) {
      if (m.stem != col::time_s && !energy_measured_) continue;
      BarChart chart;
      chart.title = m.title;
      chart.y_label = m.y_label;
      chart.series = devices_;
      for (const auto& w : workloads_)
        for (const auto& s : sizes_) {
          BarGroup g;
          g.label = s;
          g.supergroup = w;
          for (const auto& dev : devices_) {
            const long r = find_row(w, s, dev);
            if (r < 0) continue;
            Bar b;
            b.series = dev;
            const std::string status = t.get(static_cast<size_t>(r), col::status);
            if (status != "ok") {
              b.missing_text = status;
            } else {
              b.value = number(t.get(static_cast<size_t>(r), m.stem + "_mean"));
              if (b.value)
                b.error = ci_of(static_cast<size_t>(r), m.stem);
              else
                b.missing_text = "n/a";
            }
            g.bars.push_back(std::move(b));
          }
          if (!g.bars.empty()) chart.groups.push_back(std::move(g));
        }
      if (chart.groups.empty()) continue;
      std::vector<double> values;
      for (const auto& g : chart.groups)
        for (const auto& b : g.bars)
          if (b.value) values.push_back(*b.value);
      const AxisScale axis = choose_axis(values);
      std::string caption = m.title +
                            " for each workload and size: the mean over the runs of each "
                            "configuration";
      if (ok_runs) caption += " (up to " + std::to_string(ok_runs) + " runs)";
      caption += ", whiskers the 95% confidence interval of the mean.";
      if (axis.log && !values.empty()) {
        const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
        caption +=
            " Log scale: the values span " + fmt("%.1f", std::log10(*hi / *lo)) + " decades.";
      }
      h += "<figure id=\"" + html_escape(id("fig-" + m.stem)) + "\">\n" +
           render_bar_chart_svg(chart) + "<figcaption>" + html_escape(caption) +
           "</figcaption>\n</figure>\n";
    }
    if (!energy_measured_ && status_count_.count("ok"))
      h += "<p class=\"note\">Energy and EDP figures are left out: energy was not measured.</p>\n";
    return h;
  }

  std::string recommendation() {
    RecommendOptions opt;
    opt.objective = Objective::edp;
    auto recs = recommend(d_.results, opt);
    std::string h = "<h2>" + html_escape(heading("Recommendation")) + "</h2>\n";
    if (!energy_measured_ && status_count_.count("ok")) {
      opt.objective = Objective::time;
      recs = recommend(d_.results, opt);
      h += "<p>Energy was not measured, so this recommendation minimises <b>time</b> instead of "
           "EDP.</p>\n";
    } else {
      h += "<p>Objective: <b>EDP</b> (energy \xC3\x97 time per run; lower is better). "
           "<i>Confident</i> means the 95% confidence intervals of CPU and GPU do not overlap. "
           "Deadlines and battery sizes: <code>edpbench recommend results.csv --deadline-s S "
           "--battery-wh W</code>.</p>\n";
    }
    const std::string label = objective_label(opt.objective);
    const std::string unit = opt.objective == Objective::time     ? "s"
                             : opt.objective == Objective::energy ? "J"
                                                                  : "J\xC2\xB7s";
    bool any_notes = false, any_points = false;
    for (const auto& rec : recs) {
      any_notes = any_notes || !rec.notes.empty();
      any_points = any_points || rec.has_points();
    }
    if (any_points)
      h += "<p class=\"note\">The sweep had several operating points: the choice is the best "
           "(device, point) pair, and each device's value is at its own best point (in "
           "parentheses).</p>\n";
    h += "<table class=\"recommendation\">\n<tr><th>Workload</th><th>Size</th><th>Choice</th>"
         "<th>CPU " +
         html_escape(label + " (" + unit + ")") + "</th><th>GPU " +
         html_escape(label + " (" + unit + ")") + "</th><th>Ratio</th><th>Confident</th>" +
         (any_notes ? "<th>Notes</th>" : "") + "</tr>\n";
    for (const auto& rec : recs) {
      const std::string choice = rec.decided() ? rec.choice : "undecided";
      // With operating points, each value names the point it was measured at.
      auto cell = [](const std::optional<double>& v, const std::string& point) {
        return "<td class=\"num\">" +
               (v ? html_escape(format_number(*v, 4)) : std::string("\xE2\x80\x94")) +
               (point.empty() ? "" : " <span class=\"note\">(" + html_escape(point) + ")</span>") +
               "</td>";
      };
      std::string notes;
      for (const auto& n : rec.notes) notes += (notes.empty() ? "" : "; ") + n;
      h += "<tr><td>" + html_escape(rec.workload) + "</td><td>" + html_escape(rec.size) +
           "</td><td><span class=\"choice " + html_escape(choice) + "\">" +
           html_escape(choice == "cpu" || choice == "gpu" ? upper(choice) : choice) + "</span>" +
           (rec.operating_point.empty() ? "" : " at " + html_escape(rec.operating_point)) +
           "</td>" + cell(rec.cpu_value(), rec.cpu_point()) +
           cell(rec.gpu_value(), rec.gpu_point()) + "<td class=\"num\">" +
           (rec.ratio ? html_escape(format_number(*rec.ratio, 3) + "\xC3\x97") : "") + "</td><td>" +
           (rec.confident ? (*rec.confident ? "yes" : "no (CIs overlap)") : "") + "</td>" +
           (any_notes ? "<td class=\"note\">" + html_escape(notes) + "</td>" : "") + "</tr>\n";
    }
    h += "</table>\n";
    return h;
  }

  std::string mean_ci(size_t r, const std::string& stem) const {
    const auto m = number(d_.results.get(r, stem + "_mean"));
    if (!m) return "";
    std::string s = format_number(*m, 4);
    if (auto ci = ci_of(r, stem)) s += " \xC2\xB1 " + format_number(*ci, 2);
    return s;
  }

  std::string results_table() {
    const CsvTable& t = d_.results;
    const bool has_median = t.column(col::time_s_median) >= 0;
    const bool has_ed2p = t.column(col::ed2p_js2_mean) >= 0;
    const bool has_setup = t.column(col::setup_s) >= 0;
    // gflops_mean; "gflops" in directories written before issue 26.
    const std::string gflops_col = t.column(col::gflops_mean) >= 0 ? col::gflops_mean : col::gflops;
    const bool has_gflops = t.column(gflops_col) >= 0;
    const bool has_runs_file = d_.runs.has_value();
    std::string h = "<h2>" + html_escape(heading("All configurations")) +
                    "</h2>\n<div class=\"wide\"><table class=\"results\">\n<tr>";
    std::vector<std::string> head{"Workload", "Size", "Device", "Status",
                                  "Time (s) mean \xC2\xB1 CI95"};
    if (energy_measured_) {
      head.insert(head.end(), {"Energy (J) mean \xC2\xB1 CI95", "Dynamic energy (J)",
                               "Mean power (W)", "EDP (J\xC2\xB7s) mean \xC2\xB1 CI95"});
      if (has_ed2p) head.push_back("ED\xC2\xB2P (J\xC2\xB7s\xC2\xB2)");
    }
    if (has_gflops) head.push_back("GFLOP/s");
    if (has_setup) head.push_back("Setup (s)");
    head.insert(head.end(), {"Runs", "Flags"});
    for (const auto& c : head) h += "<th>" + html_escape(c) + "</th>";
    h += "</tr>\n";
    for (size_t r = 0; r < t.rows.size(); ++r) {
      const std::string status = t.get(r, col::status);
      auto num_cell = [](const std::string& s) {
        return "<td class=\"num\">" + html_escape(s) + "</td>";
      };
      auto plain = [&](const std::string& col) {
        const auto v = number(t.get(r, col));
        return num_cell(v ? format_number(*v, 4) : t.get(r, col));
      };
      std::string device = t.get(r, col::device);
      const auto threads = number(t.get(r, col::threads));
      if (threads && *threads > 0 && device_kind(device) != "gpu")
        device += " \xC3\x97" + fmt("%.0f", *threads);  // cpu ×6: threads
      h += "<tr class=\"" + html_escape(status) + "\"><td>" + html_escape(t.get(r, col::workload)) +
           "</td><td>" + html_escape(t.get(r, col::size)) + "</td><td class=\"nowrap\">" +
           html_escape(device) + "</td><td>" + html_escape(status) + "</td><td class=\"num\">" +
           html_escape(mean_ci(r, col::time_s));
      if (has_median || has_runs_file) {
        // Median and the range of the runs, on a second line of the time cell.
        std::string spread;
        if (auto m = number(t.get(r, col::time_s_median)))
          spread = "median " + format_number(*m, 4);
        const auto v = run_values(r, col::time_s);
        if (!v.empty()) {
          const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
          spread += (spread.empty() ? "runs " : ", runs ") + format_number(*lo, 4) +
                    "\xE2\x80\x93" + format_number(*hi, 4);
        }
        if (!spread.empty()) h += "<br><span class=\"note\">" + html_escape(spread) + "</span>";
      }
      h += "</td>";
      if (energy_measured_) {
        h += num_cell(mean_ci(r, col::energy_j)) + plain(col::dynamic_energy_j_mean) +
             plain(col::power_w_mean) + num_cell(mean_ci(r, col::edp_js));
        if (has_ed2p) h += plain(col::ed2p_js2_mean);
      }
      if (has_gflops) h += plain(gflops_col);
      if (has_setup) h += plain(col::setup_s);
      h += num_cell(t.get(r, col::runs));
      std::vector<std::string> flags;
      if (truthy(t.get(r, col::diverged))) flags.push_back(col::diverged);
      if (truthy(t.get(r, col::low_confidence))) flags.push_back("low confidence");
      if (auto low = number(t.get(r, col::low_confidence_runs)); low && *low > 0)
        flags.push_back("low confidence: " + fmt("%.0f", *low) + (*low == 1 ? " run" : " runs"));
      if (auto th = number(t.get(r, col::throttled_runs)); th && *th > 0)
        flags.push_back("throttled: " + fmt("%.0f", *th) + (*th == 1 ? " run" : " runs"));
      if (auto d = number(t.get(r, col::disturbed_runs)); d && *d > 0)
        flags.push_back("disturbed: " + fmt("%.0f", *d) + (*d == 1 ? " run" : " runs"));
      h += "<td>" + html_escape(join(flags)) + "</td></tr>\n";
    }
    h += "</table></div>\n";
    return h;
  }

  // Seed 003's table: each pair of backend modes' time ratio, per workload and size.
  std::string speedups() {
    std::vector<SpeedupRow> rows;
    const CsvTable& t = d_.results;
    for (size_t r = 0; r < t.rows.size(); ++r) {
      if (t.get(r, col::status) != "ok") continue;
      if (auto v = number(t.get(r, col::time_s_mean)))
        rows.push_back({t.get(r, col::workload) + "/" + t.get(r, col::size),
                        device_kind(t.get(r, col::device)), *v});
    }
    const SpeedupTable table = speedup_table(rows);
    if (table.pairs.empty()) return "";
    return "<h3>" + html_escape(heading("Speed-up between backend modes")) +
           "</h3>\n<p class=\"note\">Time per run of the slower "
           "mode divided by the faster one's, per workload and size (seed 003's table): "
           "&gt; 1 means the second mode is faster.</p>\n" +
           render_speedup_html(table, "Workload/size");
  }

  // "Recommendation" -> "Recommendation (monitor)" on a page of several.
  std::string heading(const std::string& text) const {
    return tag_.empty() ? text : text + " (" + tag_ + ")";
  }
  std::string id(const std::string& stem) const { return tag_.empty() ? stem : stem + "-" + tag_; }

  const ReportData& d_;
  const std::string tag_;
  std::vector<std::string> workloads_, sizes_, devices_;
  std::map<std::string, size_t> status_count_;
  std::map<Key, std::vector<size_t>> run_rows_;
  bool energy_measured_ = false;
};

}  // namespace

std::string render_results_section(const ReportData& rows, const std::string& tag) {
  return ResultsSection(rows, tag).render();
}

}  // namespace edp::report
