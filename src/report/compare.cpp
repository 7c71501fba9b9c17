// Pairing configurations across sweeps, the per-pair changes and U tests,
// the geometric means and the regressions (the statistics live in
// mann_whitney.cpp and geomean.cpp).
#include "report/compare.h"
#include "report/columns.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "common/errors.h"
#include "common/safe_file.h"
#include "common/text.h"
#include "report/geomean.h"
#include "report/html_util.h"
#include "report/recommend.h"

namespace edp::report {

const std::vector<CompareMetric>& compare_metrics() {
  static const std::vector<CompareMetric> m{CompareMetric::time, CompareMetric::energy,
                                            CompareMetric::dynamic_energy, CompareMetric::edp};
  return m;
}

std::string metric_name(CompareMetric m) {
  switch (m) {
    case CompareMetric::time:
      return "time";
    case CompareMetric::energy:
      return "energy";
    case CompareMetric::dynamic_energy:
      return "dynamic_energy";
    case CompareMetric::edp:
      return "edp";
  }
  return "";
}

std::string metric_title(CompareMetric m) {
  switch (m) {
    case CompareMetric::time:
      return "time (s)";
    case CompareMetric::energy:
      return "energy (J)";
    case CompareMetric::dynamic_energy:
      return "dynamic energy (J)";
    case CompareMetric::edp:
      return "EDP (J s)";
  }
  return "";
}

std::string metric_stem(CompareMetric m) {
  switch (m) {
    case CompareMetric::time:
      return col::time_s;
    case CompareMetric::energy:
      return col::energy_j;
    case CompareMetric::dynamic_energy:
      return col::dynamic_energy_j;
    case CompareMetric::edp:
      return col::edp_js;
  }
  return "";
}

std::optional<CompareMetric> parse_compare_metric(const std::string& name) {
  for (auto m : compare_metrics())
    if (metric_name(m) == name) return m;
  return std::nullopt;
}

bool ComparedConfig::in_all() const {
  return std::all_of(row.begin(), row.end(), [](const auto& r) { return r.has_value(); });
}

namespace {

// The identity columns, in label order: workload, size and study always
// pair; the studies' own identity (study_view.h: the batch study's N), the
// device, threads, key and operating point only where a sweep needs them to
// tell its rows apart.
std::vector<std::string> identity_columns(const StudyViews& studies) {
  std::vector<std::string> cols{col::workload, col::size, col::study};
  for (const auto& c : studies.identity_columns())
    if (c != col::workload && c != col::size) cols.push_back(c);
  for (const char* c : {col::device, col::threads, col::key, col::operating_point})
    cols.push_back(c);
  return cols;
}
// Tried in this order: key first (it repeats the others), then the settings
// a user varies between two sweeps, then the studies' own identity.
std::vector<std::string> droppable_columns(const StudyViews& studies) {
  std::vector<std::string> cols{col::key, col::threads, col::operating_point};
  for (const auto& c : studies.identity_columns())
    if (c != col::workload && c != col::size) cols.push_back(c);
  cols.push_back(col::device);
  return cols;
}

std::string identity_key(const LoadedSweep& s, size_t r, const std::vector<std::string>& cols) {
  std::string k;
  for (const auto& c : cols)
    k += (c == "study" ? row_study(s.data.results, r) : s.data.results.get(r, c)) + '\x1f';
  return k;
}

bool unique_in_all(const std::vector<LoadedSweep>& sweeps, const std::vector<std::string>& cols) {
  for (const auto& s : sweeps) {
    std::set<std::string> seen;
    for (size_t r = 0; r < s.data.results.rows.size(); ++r)
      if (!seen.insert(identity_key(s, r, cols)).second) return false;
  }
  return true;
}

// "tensors/small/cpu", with the other identity values; the study only when
// the sweeps hold rows of several (`with_study`).
std::string config_label(const LoadedSweep& s, size_t r, const std::vector<std::string>& cols,
                         bool with_study) {
  const CsvTable& t = s.data.results;
  std::string label = t.get(r, col::workload) + "/" + t.get(r, col::size);
  // The device always shows, also when it is the setting under comparison.
  label += "/" + t.get(r, col::device);
  for (const auto& c : cols) {
    if (c == col::workload || c == col::size || c == col::device || c == col::key) continue;
    if (c == col::study && !with_study) continue;
    const std::string v = c == col::study ? row_study(t, r) : t.get(r, c);
    if (v.empty()) continue;
    label += " " + (c == col::operating_point ? std::string("point") : c) + "=" + v;
  }
  return label;
}

}  // namespace

MetricCell metric_cell(const LoadedSweep& s, size_t r, CompareMetric m) {
  const CsvTable& t = s.data.results;
  const std::string stem = metric_stem(m);
  MetricCell c;
  c.status = t.get(r, col::status);
  if (c.status != "ok") return c;
  c.mean = html::number(t.get(r, stem + "_mean"));
  if (c.mean) c.ci95 = row_ci95(t, r, stem);
  if (s.data.runs)
    for (size_t rr : s.run_rows[r])
      if (auto v = html::number(s.data.runs->get(rr, stem))) c.runs.push_back(*v);
  return c;
}

MetricDelta metric_delta(const MetricCell& base, const MetricCell& other, double alpha) {
  MetricDelta d;
  // Relative to |base|: a change from a negative mean (dynamic energy below
  // the baseline) keeps its sign, so more is still "+".
  if (base.mean && other.mean && *base.mean != 0)
    d.change_pct = (*other.mean - *base.mean) / std::fabs(*base.mean) * 100;
  if (!base.runs.empty() && !other.runs.empty()) {
    d.test = mann_whitney_u(base.runs, other.runs);
    d.significant = d.test->p < alpha;
    d.can_be_significant = mann_whitney_min_p(static_cast<int>(base.runs.size()),
                                              static_cast<int>(other.runs.size())) < alpha;
  }
  return d;
}

Comparison compare_sweeps(const std::vector<LoadedSweep>& sweeps_in,
                          const CompareOptions& options) {
  if (sweeps_in.size() < 2) throw UsageError("compare needs two sweeps or more (A B [C...])");
  std::vector<LoadedSweep> sweeps = sweeps_in;
  // Labels must tell the sweeps apart: results/a/x and results/b/x are both "x".
  for (size_t i = 0; i < sweeps.size(); ++i) {
    int n = 1;
    for (size_t j = 0; j < i; ++j)
      if (sweeps[j].label == sweeps[i].label) ++n;
    if (n > 1) sweeps[i].label += "#" + std::to_string(n);
  }

  Comparison c;
  c.alpha = options.alpha;
  for (const auto& s : sweeps) c.sweeps.push_back(s.label);

  std::set<std::string> studies;
  for (const auto& s : sweeps)
    for (size_t r = 0; r < s.data.results.rows.size(); ++r)
      studies.insert(row_study(s.data.results, r));
  const bool with_study = studies.size() > 1;
  std::vector<std::string> cols;
  for (const auto& col : identity_columns(options.studies))
    for (const auto& s : sweeps)
      if (s.data.results.column(col) >= 0) {
        cols.push_back(col);
        break;
      }
  for (const auto& s : sweeps) {
    // One pass, each identity's first row kept (the pairwise search was
    // quadratic: 16 s for 6000 rows before the error).
    std::map<std::string, size_t> first;
    for (size_t r = 0; r < s.data.results.rows.size(); ++r)
      if (const auto [at, fresh] = first.emplace(identity_key(s, r, cols), r); !fresh)
        throw UsageError(s.data.dir + "/results.csv lines " +
                         std::to_string(s.data.results.line_of(at->second)) + " and " +
                         std::to_string(s.data.results.line_of(r)) + ": two rows for " +
                         config_label(s, r, cols, with_study) +
                         "; a results.csv has one row per configuration");
  }
  std::vector<std::string> dropped;
  for (const auto& d : droppable_columns(options.studies)) {
    auto it = std::find(cols.begin(), cols.end(), d);
    if (it == cols.end()) continue;
    std::vector<std::string> fewer = cols;
    fewer.erase(fewer.begin() + (it - cols.begin()));
    if (unique_in_all(sweeps, fewer)) {
      cols = fewer;
      dropped.push_back(d);
    }
  }
  c.identity_columns = cols;
  for (const auto& d : dropped) {
    if (d == "key") continue;
    std::vector<std::string> per_sweep;
    std::set<std::string> distinct;
    for (const auto& s : sweeps) {
      std::vector<std::string> vals;
      for (size_t r = 0; r < s.data.results.rows.size(); ++r)
        html::add_unique(vals, s.data.results.get(r, d));
      std::sort(vals.begin(), vals.end());
      distinct.insert(html::join(vals, " "));
      per_sweep.push_back(s.label + " " + (vals.empty() ? "-" : html::join(vals, "/")));
    }
    if (distinct.size() > 1) c.varied.push_back(d + ": " + html::join(per_sweep, "; "));
  }

  // Configurations in order of first appearance over the sweeps.
  std::map<std::string, size_t> index;
  std::vector<std::string> only_in_label;
  for (size_t si = 0; si < sweeps.size(); ++si) {
    const LoadedSweep& s = sweeps[si];
    for (size_t r = 0; r < s.data.results.rows.size(); ++r) {
      const std::string k = identity_key(s, r, cols);
      auto [it, inserted] = index.emplace(k, c.configs.size());
      if (inserted) {
        ComparedConfig cc;
        cc.label = config_label(s, r, cols, with_study);
        for (const auto& col : cols) cc.identity.push_back(s.data.results.get(r, col));
        cc.row.assign(sweeps.size(), std::nullopt);
        c.configs.push_back(std::move(cc));
      }
      c.configs[it->second].row[si] = r;
    }
  }
  for (size_t si = 1; si < sweeps.size(); ++si) {
    const bool shared = std::any_of(c.configs.begin(), c.configs.end(),
                                    [&](const auto& cc) { return cc.row[0] && cc.row[si]; });
    if (!shared)
      throw UsageError("no configuration of " + sweeps[si].label + " (" + sweeps[si].data.dir +
                       ") is in " + sweeps[0].label + " (" + sweeps[0].data.dir +
                       "): compare sweeps of the same workloads and sizes (paired by " +
                       html::join(cols) + ")");
  }

  const auto& metrics = compare_metrics();
  std::vector<ComparedConfig> paired;
  std::set<std::pair<int, int>> sizes_seen;
  for (auto& cc : c.configs) {
    size_t present = 0;
    for (const auto& r : cc.row) present += r.has_value();
    if (present < 2) {
      for (size_t si = 0; si < sweeps.size(); ++si)
        if (cc.row[si]) c.one_side.push_back(cc.label + ": only in " + sweeps[si].label);
      if (cc.row[0] && sweeps[0].data.results.get(*cc.row[0], col::status) == "ok") {
        Comparison::BaseOnly b{cc.label, {}};
        for (const CompareMetric m : metrics)
          b.measured.push_back(metric_cell(sweeps[0], *cc.row[0], m).mean.has_value());
        c.base_only.push_back(std::move(b));
      }
      continue;
    }
    cc.cells.assign(metrics.size(), std::vector<MetricCell>(sweeps.size()));
    cc.deltas.assign(metrics.size(), std::vector<MetricDelta>(sweeps.size() - 1));
    for (size_t mi = 0; mi < metrics.size(); ++mi) {
      for (size_t si = 0; si < sweeps.size(); ++si)
        if (cc.row[si]) cc.cells[mi][si] = metric_cell(sweeps[si], *cc.row[si], metrics[mi]);
      const MetricCell& base = cc.cells[mi][0];
      for (size_t si = 1; si < sweeps.size(); ++si) {
        MetricDelta& d = cc.deltas[mi][si - 1];
        d = metric_delta(base, cc.cells[mi][si], options.alpha);
        if (d.test) sizes_seen.emplace(d.test->n1, d.test->n2);
      }
    }
    paired.push_back(std::move(cc));
  }
  c.configs = std::move(paired);

  for (const auto& [n1, n2] : sizes_seen) {
    const double min_p = mann_whitney_min_p(n1, n2);
    if (min_p < options.alpha) continue;
    int need = 1;
    while (mann_whitney_min_p(need, need) >= options.alpha && need < 1000) ++need;
    c.test_notes.push_back(
        "n=" + std::to_string(n1) + "+" + std::to_string(n2) +
        ": the smallest two-sided p the U test can give is " + fmt("%.3g", min_p) + " (2/C(" +
        std::to_string(n1 + n2) + "," + std::to_string(n1) + ")), not below alpha " +
        fmt("%.3g", options.alpha) + ", so no change can be significant (~); run at least " +
        std::to_string(need) + " runs a side (" + std::to_string(need) + "+" +
        std::to_string(need) + " gives " + fmt("%.3g", mann_whitney_min_p(need, need)) + ")");
  }

  c.geomean.assign(metrics.size(), std::vector<std::optional<double>>(sweeps.size()));
  c.geomean_change_pct.assign(metrics.size(),
                              std::vector<std::optional<double>>(sweeps.size() - 1));
  c.geomean_configs.assign(metrics.size(), 0);
  c.geomean_left_out.assign(metrics.size(), {});
  for (size_t mi = 0; mi < metrics.size(); ++mi) {
    std::vector<std::vector<double>> values(sweeps.size());
    for (const auto& cc : c.configs) {
      if (!cc.in_all()) continue;
      std::string why;
      for (size_t si = 0; si < sweeps.size() && why.empty(); ++si) {
        const MetricCell& cell = cc.cells[mi][si];
        if (!cell.mean)
          why = "no mean in " + c.sweeps[si];
        else if (!(*cell.mean > 0))
          why = "mean " + fmt("%.4g", *cell.mean) + " in " + c.sweeps[si];
      }
      if (!why.empty()) {
        c.geomean_left_out[mi].push_back(cc.label + " (" + why + ")");
        continue;
      }
      ++c.geomean_configs[mi];
      for (size_t si = 0; si < sweeps.size(); ++si) values[si].push_back(*cc.cells[mi][si].mean);
    }
    for (size_t si = 0; si < sweeps.size(); ++si) c.geomean[mi][si] = geometric_mean(values[si]);
    for (size_t si = 1; si < sweeps.size(); ++si)
      if (c.geomean[mi][0] && c.geomean[mi][si])
        c.geomean_change_pct[mi][si - 1] = (*c.geomean[mi][si] / *c.geomean[mi][0] - 1) * 100;
  }
  c.context_notes = context_differences(sweeps);
  return c;
}

std::vector<Regression> find_regressions(const Comparison& c, CompareMetric metric,
                                         double threshold_pct) {
  const auto& metrics = compare_metrics();
  const size_t mi =
      static_cast<size_t>(std::find(metrics.begin(), metrics.end(), metric) - metrics.begin());
  std::vector<Regression> out;
  // A configuration measured in the base that a later sweep lost, or that
  // failed or was skipped there, was not checked: a gate does not pass it.
  for (const auto& b : c.base_only)
    if (b.measured[mi])
      for (size_t k = 1; k < c.sweeps.size(); ++k)
        out.push_back({b.label, c.sweeps[k], NAN, NAN, "measured in the base, not in this sweep"});
  for (const auto& cc : c.configs)
    for (size_t k = 0; k + 1 < c.sweeps.size(); ++k) {
      const MetricCell& base = cc.cells[mi][0];
      const MetricCell& other = cc.cells[mi][k + 1];
      // An ok row without the metric (energy not measured: no sensor, no
      // total rails) was not checked either.
      if (base.status == "ok" && base.mean &&
          (!cc.row[k + 1] || other.status != "ok" || !other.mean)) {
        out.push_back({cc.label, c.sweeps[k + 1], NAN, NAN,
                       "measured in the base, " +
                           (!cc.row[k + 1]         ? std::string("absent")
                            : other.status != "ok" ? escaped_excerpt(other.status, 40)
                                                   : std::string("not measured")) +
                           " in this sweep"});
        continue;
      }
      const MetricDelta& d = cc.deltas[mi][k];
      if (!d.change_pct || !(*d.change_pct > threshold_pct)) continue;
      if (d.significant)
        out.push_back({cc.label, c.sweeps[k + 1], *d.change_pct, d.test->p, ""});
      else if (!d.test)
        out.push_back({cc.label, c.sweeps[k + 1], *d.change_pct, NAN, "no runs on one side"});
      else if (!d.can_be_significant)
        out.push_back({cc.label, c.sweeps[k + 1], *d.change_pct, NAN,
                       "n=" + std::to_string(d.test->n1) + "+" + std::to_string(d.test->n2) +
                           " runs cannot reach a p below alpha"});
    }
  return out;
}

}  // namespace edp::report
