#include "report/html_boards.h"
#include "report/columns.h"

#include <algorithm>
#include <map>
#include <tuple>

#include "common/errors.h"
#include "report/board_choice.h"
#include "report/html_escape.h"
#include "report/html_sections.h"
#include "report/html_util.h"
#include "report/report_css.h"
#include "report/svg_chart.h"

namespace edp::report {

namespace {

using namespace html;

// (study, workload, size, the study's further identity, device) keys of
// every row, in order of first appearance over the sweeps.
struct Key {
  std::string study, workload, size, extra, device;
  bool operator<(const Key& o) const {
    return std::tie(study, workload, size, extra, device) <
           std::tie(o.study, o.workload, o.size, o.extra, o.device);
  }
  // "tensors/medium", "tensors/medium/n=16"; the study too when the sweeps
  // hold several ("py_tensors/small (monitor)").
  std::string label(bool with_study) const {
    return workload + "/" + size + extra + (with_study ? " (" + study + ")" : "");
  }
};

Key key_of(const CsvTable& t, size_t r, const StudyViews& studies) {
  Key k{row_study(t, r), t.get(r, col::workload), t.get(r, col::size), "", t.get(r, col::device)};
  for (const auto& c : studies.extra_identity(t, r)) k.extra += "/" + c + "=" + t.get(r, c);
  return k;
}

std::vector<Key> config_keys(const std::vector<LoadedSweep>& sweeps, const StudyViews& studies) {
  std::vector<Key> keys;
  std::map<Key, bool> seen;
  for (const auto& s : sweeps) {
    const CsvTable& t = s.data.results;
    for (size_t r = 0; r < t.rows.size(); ++r) {
      Key k = key_of(t, r, studies);
      if (seen.emplace(k, true).second) keys.push_back(k);
    }
  }
  return keys;
}

std::optional<size_t> find_row(const LoadedSweep& s, const Key& k, const StudyViews& studies) {
  const CsvTable& t = s.data.results;
  for (size_t r = 0; r < t.rows.size(); ++r) {
    const Key here = key_of(t, r, studies);
    if (!(here < k) && !(k < here)) return r;
  }
  return std::nullopt;
}

std::string chart(const std::vector<LoadedSweep>& sweeps, const std::vector<std::string>& labels,
                  const std::vector<Key>& keys, const StudyViews& studies, bool with_study,
                  const std::string& stem, const std::string& title, const std::string& y_label) {
  BarChart c;
  c.title = title;
  c.y_label = y_label;
  c.force_log = true;  // one log scale for every board: the ratios read as distances
  c.height = 460;
  std::vector<std::string> workload_order;
  // A group per (workload, size and further identity), under its workload
  // (and study, when there are several).
  std::map<std::pair<std::string, std::string>, size_t> group_of;
  auto group_key = [&](const Key& k) {
    return std::make_pair(k.workload + (with_study ? " (" + k.study + ")" : ""), k.size + k.extra);
  };
  for (const auto& k : keys) {
    const auto g = group_key(k);
    if (!group_of.count(g)) {
      group_of[g] = c.groups.size();
      c.groups.push_back({g.second, g.first, {}});
    }
  }
  for (const auto& k : keys) {
    BarGroup& g = c.groups[group_of[group_key(k)]];
    for (size_t si = 0; si < sweeps.size(); ++si) {
      const auto r = find_row(sweeps[si], k, studies);
      if (!r) continue;
      const CsvTable& t = sweeps[si].data.results;
      const std::string series = labels[si] + " " + upper(k.device);
      add_unique(c.series, series);
      Bar b;
      b.series = series;
      if (t.get(*r, col::status) == "ok") {
        b.value = number(t.get(*r, stem + "_mean"));
        b.error = row_ci95(t, *r, stem);
        if (!b.value) b.missing_text = "n/a";
      } else {
        b.missing_text = t.get(*r, col::status);
      }
      g.bars.push_back(b);
    }
  }
  // Bars in legend order inside each group.
  for (auto& g : c.groups)
    std::stable_sort(g.bars.begin(), g.bars.end(), [&](const Bar& a, const Bar& b) {
      return std::find(c.series.begin(), c.series.end(), a.series) <
             std::find(c.series.begin(), c.series.end(), b.series);
    });
  return "<figure class=\"wide\">" + render_bar_chart_svg(c) + "<figcaption>" + html_escape(title) +
         " per configuration, every board on one log scale; whiskers: 95% CI of the "
         "mean.</figcaption></figure>\n";
}

}  // namespace

std::string render_boards_report(const std::vector<LoadedSweep>& sweeps,
                                 const RecommendOptions& options) {
  const auto labels = board_labels(sweeps);
  std::string h = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  h += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  h += "<title>edpbench cross-board report</title>\n<style>\n" + report_css() +
       "</style>\n</head>\n<body>\n";
  h += "<h1>edpbench cross-board report</h1>\n<p class=\"sub\">" +
       html_escape(join(labels, " \xC2\xB7 ")) + "</p>\n";

  // The sweeps side by side, and what differs between them.
  h += "<h2>Boards</h2>\n<div class=\"wide\"><table class=\"boards\"><tr><th>Sweep</th>"
       "<th>Board</th><th>L4T</th><th>nvpmodel</th><th>Power source</th><th>Total rails</th>"
       "<th>edpbench</th><th>Configurations</th><th>Period</th></tr>\n";
  for (size_t i = 0; i < sweeps.size(); ++i) {
    const LoadedSweep& s = sweeps[i];
    // context.json through its struct (common/run_context.h); "" without one.
    const RunContext c = s.data.run_context.value_or(RunContext{});
    const std::string& start = c.start_time;
    const std::string& end = c.end_time;
    h += "<tr><td>" + html_escape(labels[i]) + "<br><span class=\"note\">" +
         html_escape(s.data.dir) + "</span></td><td>" + html_escape(c.board_model()) + "</td><td>" +
         html_escape(c.l4t_release()) + "</td><td>" + html_escape(c.nvpmodel_mode()) + "</td><td>" +
         html_escape(c.power.source) + "</td><td>" + html_escape(join(c.power.total_rails, "+")) +
         "</td><td>" + html_escape(c.edpbench_version) + "</td><td class=\"num\">" +
         std::to_string(s.data.results.rows.size()) + "</td><td>" +
         html_escape(start.empty() && end.empty() ? "" : start + " \xE2\x86\x92 " + end) +
         "</td></tr>\n";
  }
  h += "</table></div>\n";
  std::vector<LoadedSweep> named = sweeps;  // the notes name boards, not directories
  for (size_t i = 0; i < named.size(); ++i) named[i].label = labels[i];
  // compare's list: the setting it compares (threads 6 against 8), then the
  // context; the boards' own page said less than compare (issue 35).
  std::vector<std::string> notes;
  try {
    const Comparison cmp = compare_sweeps(named, CompareOptions{});
    for (const auto& v : cmp.varied) notes.push_back("compared setting: " + v);
    notes.insert(notes.end(), cmp.context_notes.begin(), cmp.context_notes.end());
  } catch (const UsageError&) {  // no configuration in common: the context only
    notes = context_differences(named);
  }
  if (!notes.empty()) {
    h += "<div class=\"notice\"><b>What differs between the sweeps</b> (besides the board, "
         "a difference here can explain a change):<ul>\n";
    for (const auto& n : notes) h += "<li>" + html_escape(n) + "</li>\n";
    h += "</ul></div>\n";
  }

  // The recommendation across boards.
  h += "<h2>Recommendation across boards</h2>\n<p class=\"note\">Objective: lowest " +
       html_escape(objective_label(options.objective)) +
       (options.deadline_s
            ? " among the (board, device, operating point) choices whose mean time per run "
              "is at most " +
                  format_number(*options.deadline_s) + " s"
            : std::string(" over every (board, device, operating point); "
                          "<code>--deadline-s</code> sets a deadline")) +
       ". Rows with status ok, CPU and GPU.</p>\n<ul class=\"recs\">\n";
  for (const auto& c : recommend_across_boards(sweeps, options))
    h += "<li>" + html_escape(board_choice_sentence(c, options)) + "</li>\n";
  h += "</ul>\n";

  const StudyViews& studies = options.studies;
  const auto keys = config_keys(sweeps, studies);
  std::vector<std::string> study_names;
  for (const auto& k : keys) add_unique(study_names, k.study);
  const bool with_study = study_names.size() > 1;
  h += "<h2>Time, energy and EDP per configuration</h2>\n";
  h += chart(sweeps, labels, keys, studies, with_study, col::time_s, "Time per run",
             "time per run (s)");
  h += chart(sweeps, labels, keys, studies, with_study, col::energy_j, "Energy per run",
             "energy per run (J)");
  h += chart(sweeps, labels, keys, studies, with_study, col::edp_js, "EDP per run", "EDP (J s)");

  h += "<h2>Every configuration</h2>\n<div class=\"wide\"><table class=\"results\"><tr>"
       "<th rowspan=\"2\">Workload/size</th><th rowspan=\"2\">Device</th>";
  for (const auto& l : labels) h += "<th colspan=\"3\">" + html_escape(l) + "</th>";
  h += "</tr>\n<tr>";
  for (size_t i = 0; i < labels.size(); ++i)
    h += "<th>time (s)</th><th>energy (J)</th><th>EDP (J s)</th>";
  h += "</tr>\n";
  for (const auto& k : keys) {
    h += "<tr><td class=\"nowrap\">" + html_escape(k.label(with_study)) + "</td><td>" +
         html_escape(k.device) + "</td>";
    for (const auto& s : sweeps) {
      const auto r = find_row(s, k, studies);
      if (!r) {
        h += "<td colspan=\"3\">not in this sweep</td>";
        continue;
      }
      const CsvTable& t = s.data.results;
      if (t.get(*r, col::status) != "ok") {
        h += "<td colspan=\"3\">" + html_escape(t.get(*r, col::status)) + "</td>";
        continue;
      }
      for (const char* col : {col::time_s_mean, col::energy_j_mean, col::edp_js_mean}) {
        const auto v = number(t.get(*r, col));
        h += "<td class=\"num\">" + (v ? html_escape(format_number(*v)) : "") + "</td>";
      }
    }
    h += "</tr>\n";
  }
  h += "</table></div>\n";

  // Each board's context, as the one-sweep report shows it.
  for (size_t i = 0; i < sweeps.size(); ++i) {
    std::string section = render_context_section(sweeps[i].data);
    const std::string head = "<h2>Context</h2>";
    if (section.compare(0, head.size(), head) == 0)
      section.replace(0, head.size(), "<h2>Context: " + html_escape(labels[i]) + "</h2>");
    h += section;
  }
  h += "<footer>Generated by <code>edpbench report</code> from " + std::to_string(sweeps.size()) +
       " sweeps (results.csv, runs.csv, context.json). Self-contained: inline CSS and SVG, no "
       "scripts, no network access.</footer>\n</body>\n</html>\n";
  return h;
}

}  // namespace edp::report
