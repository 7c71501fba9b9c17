// The three forms of a Comparison: a text table per metric in benchstat's
// manner (value ± CI, change, `~` when the U test does not reject), CSV and
// JSON.
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>

#include "common/text.h"
#include "report/compare.h"
#include "report/csv.h"
#include "report/html_util.h"
#include "report/svg_chart.h"

namespace edp::report {

namespace {

std::string pct_text(double v, const char* f = "%+.1f%%") {
  char b[32];
  std::snprintf(b, sizeof b, f, v);
  return b;
}

std::string cell_text(const MetricCell& c, bool present) {
  if (!present) return "-";
  if (c.status != "ok") return c.status.empty() ? "?" : c.status;
  if (!c.mean) return "(not measured)";
  std::string s = format_number(*c.mean);
  if (c.ci95 && *c.mean != 0) s += " ± " + pct_text(std::fabs(*c.ci95 / *c.mean) * 100, "%.0f%%");
  return s;
}

std::string delta_text(const MetricDelta& d) {
  if (!d.change_pct) return "";
  if (!d.test) return pct_text(*d.change_pct) + " (no runs to test)";
  const std::string stats = "(p=" + p_value_text(d.test->p) + " n=" + std::to_string(d.test->n1) +
                            "+" + std::to_string(d.test->n2) + ")";
  return (d.significant ? pct_text(*d.change_pct) : std::string("~")) + " " + stats;
}

std::string pad(const std::string& s, size_t w) {
  // width in code points: "±" is two bytes but one column
  size_t cols = 0;
  for (unsigned char ch : s) cols += (ch & 0xC0) != 0x80;
  return s + std::string(w > cols ? w - cols : 0, ' ');
}

size_t width(const std::string& s) {
  size_t cols = 0;
  for (unsigned char ch : s) cols += (ch & 0xC0) != 0x80;
  return cols;
}

std::string table(const std::vector<std::vector<std::string>>& rows) {
  std::vector<size_t> w;
  for (const auto& r : rows)
    for (size_t i = 0; i < r.size(); ++i) {
      if (w.size() <= i) w.push_back(0);
      w[i] = std::max(w[i], width(r[i]));
    }
  std::string out;
  for (const auto& r : rows) {
    std::string line;
    for (size_t i = 0; i < r.size(); ++i) line += pad(r[i], i + 1 < r.size() ? w[i] + 2 : 0);
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
  return out;
}

}  // namespace

std::string p_value_text(double p) {
  char b[32];
  std::snprintf(b, sizeof b, p < 0.001 ? "%.1e" : "%.3f", p);
  return b;
}

std::string comparison_text(const Comparison& c) {
  std::string out = "edpbench compare: " + c.sweeps[0] + " (base)";
  for (size_t s = 1; s < c.sweeps.size(); ++s) out += " vs " + c.sweeps[s];
  out += "\n";
  for (const auto& v : c.varied) out += "compared setting: " + v + "\n";
  out += "paired by: " + html::join(c.identity_columns) + "\n";
  if (!c.context_notes.empty()) {
    out += "context differences (a change may come from these):\n";
    for (const auto& n : c.context_notes) out += "  ! " + n + "\n";
  }
  for (const auto& n : c.test_notes) out += "note: " + n + "\n";
  const auto& metrics = compare_metrics();
  for (size_t mi = 0; mi < metrics.size(); ++mi) {
    bool any = false;
    for (const auto& cc : c.configs)
      for (const auto& cell : cc.cells[mi]) any = any || cell.mean.has_value();
    if (!any) continue;
    std::vector<std::vector<std::string>> rows;
    std::vector<std::string> head{metric_title(metrics[mi]), c.sweeps[0]};
    for (size_t s = 1; s < c.sweeps.size(); ++s) {
      head.push_back(c.sweeps[s]);
      head.push_back("vs " + c.sweeps[0]);
    }
    rows.push_back(head);
    for (const auto& cc : c.configs) {
      std::vector<std::string> r{cc.label, cell_text(cc.cells[mi][0], cc.row[0].has_value())};
      for (size_t s = 1; s < c.sweeps.size(); ++s) {
        r.push_back(cell_text(cc.cells[mi][s], cc.row[s].has_value()));
        r.push_back(delta_text(cc.deltas[mi][s - 1]));
      }
      rows.push_back(r);
    }
    std::vector<std::string> g{"geomean"};
    for (size_t s = 0; s < c.sweeps.size(); ++s) {
      g.push_back(c.geomean[mi][s] ? format_number(*c.geomean[mi][s]) : "-");
      if (s > 0)
        g.push_back(c.geomean_change_pct[mi][s - 1] ? pct_text(*c.geomean_change_pct[mi][s - 1])
                                                    : "");
    }
    rows.push_back(g);
    out += "\n" + table(rows);
    if (!c.geomean_left_out[mi].empty())
      out += "geomean over " + std::to_string(c.geomean_configs[mi]) + " of " +
             std::to_string(c.geomean_configs[mi] + c.geomean_left_out[mi].size()) +
             " configurations; left out: " + join(c.geomean_left_out[mi], ", ") + "\n";
  }
  if (!c.one_side.empty()) {
    out += "\nnot compared (in one sweep only):\n";
    for (const auto& o : c.one_side) out += "  " + o + "\n";
  }
  out += "\n~: not significant (Mann-Whitney U, two-sided, alpha " + p_value_text(c.alpha) +
         "); ± is the 95% CI of the mean; geomean over the configurations in every sweep\n";
  return out;
}

std::string comparison_csv(const Comparison& c) {
  std::vector<std::string> head{"config"};
  for (const auto& col : c.identity_columns) head.push_back(col);
  for (const char* h : {"metric", "base_sweep", "sweep", "base_mean", "base_ci95", "mean", "ci95",
                        "change_pct", "p", "n_base", "n", "significant"})
    head.push_back(h);
  std::string out = csv_line(head);
  auto num = [](const std::optional<double>& v) { return v ? fmt_double(*v) : std::string(); };
  const auto& metrics = compare_metrics();
  for (const auto& cc : c.configs)
    for (size_t mi = 0; mi < metrics.size(); ++mi)
      for (size_t s = 1; s < c.sweeps.size(); ++s) {
        const MetricCell& b = cc.cells[mi][0];
        const MetricCell& o = cc.cells[mi][s];
        const MetricDelta& d = cc.deltas[mi][s - 1];
        std::vector<std::string> r{cc.label};
        for (const auto& v : cc.identity) r.push_back(v);
        r.insert(
            r.end(),
            {metric_name(metrics[mi]), c.sweeps[0], c.sweeps[s], num(b.mean), num(b.ci95),
             num(o.mean), num(o.ci95), num(d.change_pct), d.test ? fmt_double(d.test->p) : "",
             d.test ? std::to_string(d.test->n1) : "", d.test ? std::to_string(d.test->n2) : "",
             d.test ? (d.significant ? "true" : "false") : ""});
        out += csv_line(r);
      }
  for (size_t mi = 0; mi < metrics.size(); ++mi)
    for (size_t s = 1; s < c.sweeps.size(); ++s) {
      std::vector<std::string> r{"geomean"};
      r.resize(1 + c.identity_columns.size());
      r.insert(r.end(),
               {metric_name(metrics[mi]), c.sweeps[0], c.sweeps[s], num(c.geomean[mi][0]), "",
                num(c.geomean[mi][s]), "", num(c.geomean_change_pct[mi][s - 1]), "", "", "", ""});
      out += csv_line(r);
    }
  return out;
}

std::string comparison_json(const Comparison& c) {
  using J = nlohmann::ordered_json;
  auto num = [](const std::optional<double>& v) { return v ? J(*v) : J(nullptr); };
  J j;
  j["sweeps"] = c.sweeps;
  j["paired_by"] = c.identity_columns;
  j["compared_settings"] = c.varied;
  j["context_differences"] = c.context_notes;
  j["test_notes"] = c.test_notes;
  j["alpha"] = c.alpha;
  const auto& metrics = compare_metrics();
  J configs = J::array();
  for (const auto& cc : c.configs) {
    J jc;
    jc["config"] = cc.label;
    J id = J::object();
    for (size_t i = 0; i < cc.identity.size(); ++i) id[c.identity_columns[i]] = cc.identity[i];
    jc["identity"] = id;
    for (size_t mi = 0; mi < metrics.size(); ++mi) {
      J jm;
      J vals = J::array();
      for (size_t s = 0; s < c.sweeps.size(); ++s) {
        const MetricCell& cell = cc.cells[mi][s];
        vals.push_back({{"sweep", c.sweeps[s]},
                        {"present", cc.row[s].has_value()},
                        {"status", cell.status},
                        {"mean", num(cell.mean)},
                        {"ci95", num(cell.ci95)},
                        {"runs", cell.runs}});
      }
      jm["values"] = vals;
      J deltas = J::array();
      for (size_t s = 1; s < c.sweeps.size(); ++s) {
        const MetricDelta& d = cc.deltas[mi][s - 1];
        J jd{{"sweep", c.sweeps[s]}, {"change_pct", num(d.change_pct)}};
        if (d.test) {
          jd["u"] = d.test->u1;
          jd["p"] = d.test->p;
          jd["exact"] = d.test->exact;
          jd["n"] = {d.test->n1, d.test->n2};
        }
        jd["significant"] = d.significant;
        deltas.push_back(jd);
      }
      jm["vs_base"] = deltas;
      jc[metric_name(metrics[mi])] = jm;
    }
    configs.push_back(jc);
  }
  j["configs"] = configs;
  j["one_side"] = c.one_side;
  J g = J::object();
  for (size_t mi = 0; mi < metrics.size(); ++mi) {
    J gm = J::array();
    for (size_t s = 0; s < c.sweeps.size(); ++s)
      gm.push_back({{"sweep", c.sweeps[s]},
                    {"geomean", num(c.geomean[mi][s])},
                    {"change_pct", s ? num(c.geomean_change_pct[mi][s - 1]) : J(nullptr)}});
    g[metric_name(metrics[mi])] = gm;
    j["geomean_configs"][metric_name(metrics[mi])] = c.geomean_configs[mi];
    j["geomean_left_out"][metric_name(metrics[mi])] = c.geomean_left_out[mi];
  }
  j["geomean"] = g;
  // Strings come from the CSV files: invalid UTF-8 becomes U+FFFD, as in
  // context.json (found by fuzz_results_csv).
  return j.dump(2, ' ', false, J::error_handler_t::replace) + "\n";
}

}  // namespace edp::report
