// measure's outputs (see measure_report.h).
#include "bench/measure_report.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>

#include "common/json.h"
#include "common/text.h"
#include "report/csv.h"
#include "report/results_csv.h"
#include "report/stats.h"

namespace edp::bench {
namespace {

// json_number keeps 10 digits, which would round a Unix time to the second.
std::string json_clock(double v) { return std::isfinite(v) ? fmt("%.6f", v) : "null"; }

// A window field's JSON value, by its kind (edpbench/window_fields.h).
enum class FieldKind { value, measured, clock, text };
void set_field(JsonObject& o, const char* name, double v, FieldKind kind) {
  if (kind == FieldKind::clock)
    o.set_raw(name, json_clock(v));
  else
    o.set(name, v);
}
void set_field(JsonObject& o, const char* name, uint64_t v, FieldKind) {
  o.set(name, static_cast<double>(v));
}
void set_field(JsonObject& o, const char* name, bool v, FieldKind) { o.set(name, v); }
void set_field(JsonObject& o, const char* name, const std::string& v, FieldKind) { o.set(name, v); }

// One run: its number and the command's exit, the window's fields (the
// table the monitor's WindowResult and runs.csv share), the energy per rail.
JsonObject run_json(const CommandRun& c) {
  const report::RunRecord& r = c.record;
  JsonObject o;
  o.set("run", r.run);
  o.set("exit_status", c.exit_status);
  o.set("failed", c.exit_status != 0);
#define EDP_JSON_FIELD(type, field, initial, kind) set_field(o, #field, r.field, FieldKind::kind);
  EDPBENCH_WINDOW_FIELDS(EDP_JSON_FIELD)
#undef EDP_JSON_FIELD
  std::map<std::string, double> rails;
  for (const auto& rail : r.rails) rails[rail.rail] = rail.energy_j;
  o.set("rail_energy_j", rails);
  return o;
}

// The measured values of one quantity over the runs, NaN ones left out.
std::vector<double> values(const std::vector<CommandRun>& runs, double report::RunRecord::*field) {
  std::vector<double> v;
  for (const auto& r : runs)
    if (!std::isnan(r.record.*field)) v.push_back(r.record.*field);
  return v;
}

struct Metric {
  const char* key;   // JSON key
  const char* name;  // summary label
  const char* unit;
  double report::RunRecord::*field;
};

const Metric kMetrics[] = {
    {"time_s", "time", "s", &report::RunRecord::time_s},
    {"energy_j", "energy", "J", &report::RunRecord::energy_j},
    {"dynamic_energy_j", "dynamic energy", "J", &report::RunRecord::dynamic_energy_j},
    {"edp_js", "EDP", "J*s", &report::RunRecord::edp_js},
    {"power_w_mean", "power", "W", &report::RunRecord::power_w_mean}};

}  // namespace

std::string measure_json(const MeasureReport& rep) {
  JsonObject o;
  o.set("label", rep.label);
  o.set("command", rep.command);
  o.set("power_source", rep.source);
  o.set("rails", join(rep.rails, ","));
  o.set("total_rails", join(rep.total_rails, "+"));
  o.set("baseline_w", rep.baseline_w);
  o.set("warmup", rep.warmup);
  o.set("interrupted", rep.interrupted);
  std::string runs = "[";
  for (size_t i = 0; i < rep.runs.size(); ++i)
    runs += (i ? "," : "") + run_json(rep.runs[i]).str(0);
  o.set_raw("runs", runs + "]");
  JsonObject summary;
  for (const auto& metric : kMetrics) {
    const report::Summary s = report::summarize(values(rep.runs, metric.field));
    JsonObject j;
    j.set("n", s.n);
    j.set("mean", s.n ? s.mean : NAN);
    j.set("std", s.n ? s.std : NAN);
    j.set("ci95", s.n ? s.ci95 : NAN);
    j.set("median", s.n ? s.median : NAN);
    j.set("min", s.n ? s.min : NAN);
    j.set("max", s.n ? s.max : NAN);
    summary.set(metric.key, j);
  }
  o.set("summary", summary);
  o.set_raw("context", to_context_json(rep.context, 0));
  return o.str() + "\n";
}

// The --csv file: runs.csv's own columns (report/results_csv.h), the
// command's label as the workload, then label and exit_status.
std::string measure_csv(const MeasureReport& rep) {
  std::vector<std::string> header = report::runs_columns();
  header.insert(header.end(), {"label", "exit_status"});
  std::string out = report::csv_line(header);
  for (const auto& r : rep.runs) {
    std::vector<std::string> row = report::runs_row(rep.part, r.record);
    row.insert(row.end(), {rep.label, std::to_string(r.exit_status)});
    out += report::csv_line(row);
  }
  return out;
}

// The perf-stat-like summary on stderr.
std::string measure_summary(const MeasureReport& rep, bool metered) {
  std::string out = "\n Energy and time for: " + rep.command + " (" +
                    std::to_string(rep.runs.size()) + " run" + (rep.runs.size() == 1 ? "" : "s");
  if (rep.warmup) out += ", " + std::to_string(rep.warmup) + " warm-up";
  out += "):\n";
  if (metered) {
    out += "   power source " + rep.source + ", total rails " + join(rep.total_rails, "+");
    if (!std::isnan(rep.baseline_w)) out += ", idle baseline " + fmt("%.3f W", rep.baseline_w);
    out += "\n";
  }
  out += "\n";
  for (const auto& metric : kMetrics) {
    const std::vector<double> v = values(rep.runs, metric.field);
    if (v.empty()) continue;
    const report::Summary s = report::summarize(v);
    char line[256];
    std::snprintf(line, sizeof line, "   %14.6g %-3s  %s", s.mean, metric.unit, metric.name);
    out += line;
    if (s.n >= 2) {
      out += std::string(15 - std::strlen(metric.name), ' ');
      const double pct = s.mean != 0 ? 100 * s.std / std::fabs(s.mean) : 0;
      std::snprintf(line, sizeof line, " +- %-10.4g (%5.2f%%)   95%% CI [%.6g, %.6g]", s.std, pct,
                    s.mean - s.ci95, s.mean + s.ci95);
      out += line;
    }
    if (s.n != static_cast<int>(rep.runs.size()))
      out += "  (" + std::to_string(s.n) + " of " + std::to_string(rep.runs.size()) + " runs)";
    out += "\n";
  }
  out += "\n";
  return out;
}

std::vector<std::string> measure_warnings(const MeasureReport& rep, bool metered) {
  std::vector<std::string> w;
  if (!metered) w.push_back("no power source: time only, the energy columns stay empty");
  size_t low = 0, frozen = 0, incomplete = 0, failed = 0;
  for (const auto& r : rep.runs) {
    low += r.record.low_confidence;
    frozen += r.record.frozen;
    incomplete += metered && std::isnan(r.record.energy_j);
    failed += r.exit_status != 0;
  }
  auto of = [&](size_t n) {
    return std::to_string(n) + " of " + std::to_string(rep.runs.size()) + " run(s) ";
  };
  if (low)
    w.push_back(of(low) +
                "low confidence: shorter than 10 sensor updates; lengthen the command's work");
  if (frozen) w.push_back(of(frozen) + "with a frozen sensor: their energy is not to be trusted");
  if (incomplete) w.push_back(of(incomplete) + "without energy (sensor reads failed)");
  if (failed) w.push_back(of(failed) + "failed (non-zero exit status)");
  return w;
}

}  // namespace edp::bench
