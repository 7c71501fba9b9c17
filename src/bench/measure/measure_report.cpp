// measure's outputs (see measure_report.h).
#include "bench/measure/measure_report.h"

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

namespace {

// The finest step each quantity is resolved to: the clock to the
// microsecond, power to the milliwatt (the INA3221's and INA226's power
// LSB), energy to the millijoule; EDP and the rest follow from those.
double resolution(const char* unit) {
  const std::string u = unit;
  if (u == "s") return 1e-6;
  if (u == "W") return 1e-3;
  if (u == "J") return 1e-3;
  return 1e-6;
}

// Decimals for a value whose uncertainty is `spread` (0: unknown): two
// significant digits of the spread, four of the value when there is none,
// never finer than the unit's resolution.
int decimals_for(double value, double spread, const char* unit) {
  const double step = resolution(unit);
  const int finest = static_cast<int>(std::lround(-std::log10(step)));
  const double scale = spread > 0 ? spread : std::fabs(value);
  if (!(scale > 0) || !std::isfinite(scale)) return std::min(finest, 3);
  const int digits = spread > 0 ? 2 : 4;
  const int d = digits - 1 - static_cast<int>(std::floor(std::log10(scale)));
  return std::max(0, std::min(finest, d));
}

std::string fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

// Quantities that cannot be negative: a CI that reaches below zero is
// clipped there (and says so). Dynamic energy can be: idle power x time
// may exceed a noisy run's energy.
bool non_negative(const Metric& m) { return std::string(m.key) != "dynamic_energy_j"; }

}  // namespace

std::string measure_run_line(const MeasureReport& rep, const CommandRun& run, int planned,
                             double eta_s) {
  const report::RunRecord& r = run.record;
  std::string out = "edpbench: run " + std::to_string(r.run) + "/" + std::to_string(planned) +
                    ": " + fixed(r.time_s, decimals_for(r.time_s, 0, "s")) + " s";
  if (!std::isnan(r.energy_j))
    out += ", " + fixed(r.energy_j, decimals_for(r.energy_j, 0, "J")) + " J, " +
           fixed(r.power_w_mean, decimals_for(r.power_w_mean, 0, "W")) + " W";
  else if (rep.metered)
    out += ", no energy";
  if (run.exit_status != 0) out += ", exit " + std::to_string(run.exit_status);
  if (r.low_confidence) out += " (low confidence)";
  if (r.disturbed) out += " (disturbed)";
  if (r.run < planned && eta_s >= 0) {
    const long s = std::lround(eta_s);
    char buf[48];
    std::snprintf(buf, sizeof buf, "  [ETA %ldm%02lds]", s / 60, s % 60);
    out += buf;
  }
  return out;
}

// The summary on stderr, as perf stat and hyperfine print theirs: one
// labelled line per quantity, the mean with its 95% CI, the standard
// deviation and the range, each in its unit, rounded to what the
// sensor and the spread resolve.
std::string measure_summary(const MeasureReport& rep) {
  std::string out = "\n Energy and time of: " + rep.command + " (" +
                    std::to_string(rep.runs.size()) + " run" + (rep.runs.size() == 1 ? "" : "s");
  if (rep.warmup) out += ", " + std::to_string(rep.warmup) + " warm-up";
  out += ")\n";
  if (rep.metered) {
    out += "   power source " + rep.source + ", total rails " +
           (rep.total_rails.empty() ? "none (energy not measured)" : join(rep.total_rails, "+"));
    if (!std::isnan(rep.baseline_w)) out += ", idle baseline " + fmt("%.3f W", rep.baseline_w);
    out += "\n";
  } else {
    out += "   no power source: times only\n";
  }
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> clipped;
  const bool several = rep.runs.size() >= 2;
  rows.push_back({"", several ? "mean \xC2\xB1 95% CI" : "value", several ? "std" : "",
                  several ? "min \xE2\x80\xA6 max" : ""});
  for (const auto& metric : kMetrics) {
    const std::vector<double> v = values(rep.runs, metric.field);
    if (v.empty()) continue;
    const report::Summary s = report::summarize(v);
    const int d = decimals_for(s.mean, s.n >= 2 ? s.ci95 : 0, metric.unit);
    const std::string u = std::string(" ") + metric.unit;
    std::string name = metric.name;
    if (s.n != static_cast<int>(rep.runs.size()))
      name += " (" + std::to_string(s.n) + " of " + std::to_string(rep.runs.size()) + ")";
    if (s.n < 2) {
      rows.push_back({name, fixed(s.mean, d) + u, "", ""});
      continue;
    }
    std::string mean_ci = fixed(s.mean, d) + u + " \xC2\xB1 " + fixed(s.ci95, d) + u;
    if (non_negative(metric) && s.mean - s.ci95 < 0) {
      mean_ci += " *";
      clipped.push_back(std::string(metric.name) + " [0, " + fixed(s.mean + s.ci95, d) + u + "]");
    }
    rows.push_back({name, mean_ci, fixed(s.std, d) + u,
                    fixed(s.min, d) + u + " \xE2\x80\xA6 " + fixed(s.max, d) + u});
  }
  // Columns padded to their widest cell (counting the two-byte symbols once).
  auto width = [](const std::string& c) {
    size_t w = 0;
    for (unsigned char ch : c) w += (ch & 0xC0) != 0x80;
    return w;
  };
  std::vector<size_t> widths(4, 0);
  for (const auto& r : rows)
    for (size_t c = 0; c < r.size(); ++c) widths[c] = std::max(widths[c], width(r[c]));
  for (const auto& r : rows) {
    std::string line = "   ";
    for (size_t c = 0; c < r.size(); ++c) {
      line += r[c];
      if (c + 1 < r.size()) line += std::string(widths[c] - width(r[c]) + 3, ' ');
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
  if (!clipped.empty())
    out += "   * the 95% CI reaches below 0, which these cannot: clipped, it is " +
           join(clipped, ", ") + "\n";
  return out + "\n";
}

std::vector<std::string> measure_warnings(const MeasureReport& rep) {
  std::vector<std::string> w;
  size_t low = 0, frozen = 0, no_energy = 0, failed = 0;
  const CommandRun *first_low = nullptr, *first_missing = nullptr;
  for (const auto& r : rep.runs) {
    if (r.record.low_confidence && !first_low) first_low = &r;
    low += r.record.low_confidence;
    frozen += r.record.frozen;
    if (rep.metered && std::isnan(r.record.energy_j)) {
      ++no_energy;
      if (!first_missing) first_missing = &r;
    }
    failed += r.exit_status != 0;
  }
  auto of = [&](size_t n) {
    return std::to_string(n) + " of " + std::to_string(rep.runs.size()) + " run" +
           (rep.runs.size() == 1 ? "" : "s") + " ";
  };
  // The reasons are the runs' own notes (the confidence rule's and the
  // window's), never a guess: the first such run's, which the others share
  // up to their numbers.
  auto why = [](const CommandRun* r) {
    return r->record.note.empty()
               ? std::string()
               : " (run " + std::to_string(r->record.run) + ": " + r->record.note + ")";
  };
  if (no_energy) w.push_back(of(no_energy) + "without energy" + why(first_missing));
  if (low)
    w.push_back(of(low) + "low confidence" + (first_missing == first_low ? "" : why(first_low)));
  if (frozen && !no_energy) w.push_back(of(frozen) + "with a frozen sensor");
  if (failed) w.push_back(of(failed) + "failed (non-zero exit status)");
  return w;
}

}  // namespace edp::bench
