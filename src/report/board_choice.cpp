#include "report/board_choice.h"
#include "report/columns.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <tuple>

#include "report/html_util.h"
#include "report/svg_chart.h"

namespace edp::report {

namespace {

std::string strip(std::string s, const std::string& what) {
  const auto at = s.find(what);
  if (at != std::string::npos) s.erase(at, what.size());
  return s;
}

// The board model and nvpmodel mode, from context.json through its struct.
std::string board_model_of(const LoadedSweep& s) {
  return s.data.run_context ? s.data.run_context->board_model() : "";
}
std::string nvpmodel_mode_of(const LoadedSweep& s) {
  return s.data.run_context ? s.data.run_context->nvpmodel_mode() : "";
}

std::string unit_of(Objective o) {
  switch (o) {
    case Objective::energy:
      return "J";
    case Objective::time:
      return "s";
    case Objective::edp:
      return "J s";
  }
  return "";
}

std::string describe_option(const BoardOption& o) {
  std::string d = o.board + " " + html::upper(device_kind(o.device));
  if (o.device.find('#') != std::string::npos) d += " (" + o.device + ")";
  if (!o.point.empty()) d += " at " + o.point;
  return d;
}

}  // namespace

std::vector<std::string> board_labels(const std::vector<LoadedSweep>& sweeps) {
  std::vector<std::string> models, labels;
  for (const auto& s : sweeps) {
    std::string m = board_model_of(s);
    for (const char* w : {"NVIDIA ", " Engineering Reference", " Developer Kit"}) m = strip(m, w);
    models.push_back(m);
  }
  for (size_t i = 0; i < sweeps.size(); ++i) {
    std::string l = models[i].empty() ? sweeps[i].label : models[i];
    const bool shared =
        !models[i].empty() && std::count(models.begin(), models.end(), models[i]) > 1;
    if (shared) {
      const std::string mode = nvpmodel_mode_of(sweeps[i]);
      l += mode.empty() ? " (" + sweeps[i].label + ")" : " " + mode;
    }
    labels.push_back(l);
  }
  for (size_t i = 0; i < labels.size(); ++i)  // still equal: the directory names decide
    for (size_t j = 0; j < i; ++j)
      if (labels[i] == labels[j]) labels[i] += " (" + sweeps[i].label + ")";
  return labels;
}

std::vector<BoardChoice> recommend_across_boards(const std::vector<LoadedSweep>& sweeps,
                                                 const RecommendOptions& options) {
  const auto labels = board_labels(sweeps);
  const std::string column = objective_column(options.objective);
  std::vector<BoardChoice> out;
  using Extra = std::vector<std::pair<std::string, std::string>>;
  std::map<std::tuple<std::string, std::string, Extra>, size_t> index;
  std::map<size_t, std::set<size_t>> boards_of;
  for (size_t si = 0; si < sweeps.size(); ++si) {
    const CsvTable& t = sweeps[si].data.results;
    const std::string mode = nvpmodel_mode_of(sweeps[si]);
    for (size_t r = 0; r < t.rows.size(); ++r) {
      if (t.get(r, col::status) != "ok") continue;
      const std::string device = t.get(r, col::device);
      const std::string kind = device_kind(device);
      if (kind != "cpu" && kind != "gpu") continue;
      Extra extra;
      for (const auto& c : options.studies.extra_identity(t, r)) extra.emplace_back(c, t.get(r, c));
      const auto key = std::make_tuple(t.get(r, col::workload), t.get(r, col::size), extra);
      auto [it, inserted] = index.emplace(key, out.size());
      if (inserted)
        out.push_back({t.get(r, col::workload), t.get(r, col::size), extra, {}, {}, {}, {}, 0});
      BoardChoice& c = out[it->second];
      // Time, energy and EDP are positive: zero or less is no measurement
      // (as recommend() takes it); it won as "-1 J". A board counts once it
      // has measured the configuration.
      const auto value = html::number(t.get(r, column));
      if (!value || !(*value > 0)) continue;
      boards_of[it->second].insert(si);
      c.boards = boards_of[it->second].size();
      BoardOption o;
      o.sweep = si;
      o.row = r;
      o.board = labels[si];
      o.device = device;
      o.point = t.get(r, col::operating_point);
      if (o.point.empty()) o.point = mode;
      o.value = *value;
      o.time_s = html::number(t.get(r, col::time_s_mean));
      if (o.time_s && !(*o.time_s > 0)) o.time_s.reset();
      o.meets_deadline = !options.deadline_s || (o.time_s && *o.time_s <= *options.deadline_s);
      if (!c.fastest || (o.time_s && (!c.fastest->time_s || *o.time_s < *c.fastest->time_s)))
        c.fastest = o;
      if (!o.meets_deadline) continue;
      if (!c.best || o.value < c.best->value) {
        if (c.best && c.best->sweep != o.sweep) c.runner_up = c.best;
        c.best = o;
      } else if (o.sweep != c.best->sweep && (!c.runner_up || o.value < c.runner_up->value)) {
        c.runner_up = o;
      }
    }
  }
  // A runner-up from the best's own board can remain from before the best
  // changed; keep only another board's.
  const CompareMetric metric = compare_metric_of(options.objective);
  for (auto& c : out) {
    if (c.best && c.runner_up && c.runner_up->sweep == c.best->sweep) c.runner_up.reset();
    if (c.best && c.runner_up)
      c.versus_runner_up =
          metric_delta(metric_cell(sweeps[c.best->sweep], c.best->row, metric),
                       metric_cell(sweeps[c.runner_up->sweep], c.runner_up->row, metric),
                       CompareOptions{}.alpha);
  }
  return out;
}

CompareMetric compare_metric_of(Objective o) {
  switch (o) {
    case Objective::energy:
      return CompareMetric::energy;
    case Objective::time:
      return CompareMetric::time;
    case Objective::edp:
      return CompareMetric::edp;
  }
  return CompareMetric::edp;
}

std::string board_choice_sentence(const BoardChoice& c, const RecommendOptions& options) {
  std::string s = "for " + c.workload + "/" + c.size;
  for (const auto& [column, value] : c.extra_identity) s += "/" + column + "=" + value;
  if (options.deadline_s) s += " under a " + format_number(*options.deadline_s) + " s deadline";
  const std::string what =
      options.objective == Objective::edp ? "EDP" : objective_label(options.objective);
  if (!c.best) {
    if (options.deadline_s && c.fastest && c.fastest->time_s)
      return s + ", no board meets it (the fastest is " + describe_option(*c.fastest) + ", " +
             format_number(*c.fastest->time_s) + " s)";
    return s + ", nothing was measured";
  }
  const std::string unit = " " + unit_of(options.objective);
  const MetricDelta* d = c.versus_runner_up ? &*c.versus_runner_up : nullptr;
  // No ratio beyond a double ("inf× more"): such values are no measurements.
  const double times = c.runner_up && c.best->value > 0 ? c.runner_up->value / c.best->value : NAN;
  const std::string ratio =
      std::isfinite(times) ? ", " + format_number(times) + "\xC3\x97 more" : std::string();
  const std::string test = d && d->test ? "p=" + p_value_text(d->test->p) +
                                              " n=" + std::to_string(d->test->n1) + "+" +
                                              std::to_string(d->test->n2)
                                        : std::string();
  if (c.runner_up && !(d && d->significant)) {
    // compare finds no difference: no winner (issue 35: "lowest energy is
    // t1 CPU; t2 2.34x more" where compare gave p = 0.095).
    s += ", the boards tie on " + what + ": " + describe_option(*c.best) + " (" +
         format_number(c.best->value) + unit + ") and " + describe_option(*c.runner_up) + " (" +
         format_number(c.runner_up->value) + unit + ") ";
    s += d && d->test ? "differ by no more than their runs vary (" + test + ", as compare tests)"
                      : "cannot be told apart (no per-run values in runs.csv to test)";
    return s;
  }
  s += ", the lowest " + what + " is " + describe_option(*c.best) + " (" +
       format_number(c.best->value) + unit + ")";
  if (c.runner_up)
    s += "; next: " + describe_option(*c.runner_up) + ratio + " (" + test + ")";
  else if (c.boards < 2)
    s += "; only one board measured it";
  else
    s += "; no other board meets the deadline";
  return s;
}

}  // namespace edp::report
