#include "report/results_csv.h"

#include <algorithm>
#include <cstdio>

#include "report/csv.h"
#include "report/csv_schema.h"
#include "report/stats.h"

namespace edp::report {
namespace {

std::string b(bool v) { return v ? "true" : "false"; }

// Timestamps: fixed decimals (microseconds), since %g would round a Unix time
// to whole seconds or less.
std::string fmt_fixed(double v, int decimals) {
  if (std::isnan(v)) return "";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

std::string count(int64_t v) { return std::to_string(v); }
// A whole number kept as a double (a record's value); NaN -> "".
std::string whole(double v) {
  return std::isnan(v) ? std::string() : std::to_string(static_cast<long long>(v));
}

// Values of a field over the runs that measured it (NaN skipped).
template <class F>
std::vector<double> collect(const PartRecord& c, F f) {
  std::vector<double> v;
  for (const RunRecord& r : c.run_records) {
    const double x = f(r);
    if (!std::isnan(x)) v.push_back(x);
  }
  return v;
}

// What a results.csv row is computed from: the part and the statistics of
// its runs (one statistic per column, named in the column: issue 26).
struct ResultFigures {
  const ItemRecord& item;  // the MLP study's values: n, d_in, h, d_out, gflop_per_iteration
  const PartRecord& c;
  Summary time, energy, dyn, power, edp, ed2p;
  std::vector<double> gpu, samples;
  bool timed = false, have_energy = false, dyn_ok = false;
  int low = 0, throttled = 0, frozen = 0, disturbed = 0;
  double lag_s = 0;
  double per_sample = 0;  // samples per run: N rows of x per iteration (DESIGN §9.2)

  ResultFigures(const ItemRecord& rec, const PartRecord& part) : item(rec), c(part) {
    time = summarize(collect(c, [](const RunRecord& r) { return r.time_s; }));
    const auto e = collect(c, [](const RunRecord& r) { return r.energy_j; });
    const auto d = collect(c, [](const RunRecord& r) { return r.dynamic_energy_j; });
    // Energy statistics only when every run measured it: a partial set would
    // bias the mean without saying so.
    have_energy = !c.run_records.empty() && e.size() == c.run_records.size();
    dyn_ok = have_energy && d.size() == e.size();
    if (have_energy) {
      energy = summarize(e);
      power = summarize(collect(c, [](const RunRecord& r) { return r.power_w_mean; }));
      edp = summarize(collect(c, [](const RunRecord& r) { return r.edp_js; }));
      ed2p = summarize(
          collect(c, [](const RunRecord& r) { return r.energy_j * r.time_s * r.time_s; }));
    }
    if (dyn_ok) dyn = summarize(d);
    gpu = collect(c, [](const RunRecord& r) { return r.gpu_time_s; });
    samples = collect(c, [](const RunRecord& r) { return static_cast<double>(r.samples); });
    timed = time.n > 0;
    for (const RunRecord& r : c.run_records) {
      low += r.low_confidence;
      disturbed += r.disturbed;
      throttled += r.throttled;
      frozen += r.frozen;
      lag_s = std::max(lag_s, r.lag_correction_s);
    }
    per_sample = item.value("n") * c.iterations;
  }
};

using RF = ResultFigures;
std::string when(bool ok, double v) { return ok ? fmt_double(v) : std::string(); }

const CsvSchema<RF>& results_schema() {
  // DESIGN §5: the required columns first, in this order; then the extras.
  static const CsvSchema<RF> schema{
      {
          {"workload", [](const RF& f) { return f.c.workload; }},
          {"size", [](const RF& f) { return f.c.size; }},
          {"n", [](const RF& f) { return whole(f.item.value("n")); }},
          {"d_in", [](const RF& f) { return whole(f.item.value("d_in")); }},
          {"h", [](const RF& f) { return whole(f.item.value("h")); }},
          {"d_out", [](const RF& f) { return whole(f.item.value("d_out")); }},
          {"device", [](const RF& f) { return f.c.device; }},
          {"threads", [](const RF& f) { return count(f.c.threads); }},
          {"iterations", [](const RF& f) { return count(f.c.iterations); }},
          {"runs", [](const RF& f) { return count(static_cast<int64_t>(f.c.run_records.size())); }},
          {"status", [](const RF& f) { return f.c.status; }},
          {"time_s_mean", [](const RF& f) { return when(f.timed, f.time.mean); }},
          {"time_s_std", [](const RF& f) { return when(f.timed, f.time.std); }},
          {"time_s_ci95", [](const RF& f) { return when(f.timed, f.time.ci95); }},
          {"energy_j_mean", [](const RF& f) { return when(f.have_energy, f.energy.mean); }},
          {"energy_j_std", [](const RF& f) { return when(f.have_energy, f.energy.std); }},
          {"energy_j_ci95", [](const RF& f) { return when(f.have_energy, f.energy.ci95); }},
          {"dynamic_energy_j_mean", [](const RF& f) { return when(f.dyn_ok, f.dyn.mean); }},
          {"power_w_mean", [](const RF& f) { return when(f.have_energy, f.power.mean); }},
          {"edp_js_mean", [](const RF& f) { return when(f.have_energy, f.edp.mean); }},
          {"edp_js_std", [](const RF& f) { return when(f.have_energy, f.edp.std); }},
          {"power_source", [](const RF& f) { return f.c.power_source; }},
          {"energy_rails", [](const RF& f) { return f.c.energy_rails; }},
          {"samples_per_run",
           [](const RF& f) {
             return f.samples.empty() || !f.have_energy ? "" : fmt_double(mean(f.samples));
           }},
          {"final_loss",
           [](const RF& f) {
             return fmt_double(f.c.run_records.empty() ? NAN : f.c.run_records.back().final_loss);
           }},
          {"diverged", [](const RF& f) { return f.timed ? b(f.c.diverged) : ""; }},
          {"note", [](const RF& f) { return f.c.note; }},
      },
      {
          {"time_s_median", [](const RF& f) { return when(f.timed, f.time.median); }},
          {"time_s_min", [](const RF& f) { return when(f.timed, f.time.min); }},
          {"energy_j_median", [](const RF& f) { return when(f.have_energy, f.energy.median); }},
          {"energy_j_min", [](const RF& f) { return when(f.have_energy, f.energy.min); }},
          {"dynamic_energy_j_std", [](const RF& f) { return when(f.dyn_ok, f.dyn.std); }},
          {"dynamic_energy_j_ci95", [](const RF& f) { return when(f.dyn_ok, f.dyn.ci95); }},
          {"dynamic_energy_j_median", [](const RF& f) { return when(f.dyn_ok, f.dyn.median); }},
          {"dynamic_energy_j_min", [](const RF& f) { return when(f.dyn_ok, f.dyn.min); }},
          {"edp_js_ci95", [](const RF& f) { return when(f.have_energy, f.edp.ci95); }},
          {"edp_js_median", [](const RF& f) { return when(f.have_energy, f.edp.median); }},
          {"edp_js_min", [](const RF& f) { return when(f.have_energy, f.edp.min); }},
          {"ed2p_js2_mean", [](const RF& f) { return when(f.have_energy, f.ed2p.mean); }},
          {"gpu_time_s_mean",
           [](const RF& f) { return f.gpu.empty() ? "" : fmt_double(mean(f.gpu)); }},
          {"time_per_iteration_s_mean",
           [](const RF& f) { return when(f.timed, f.time.mean / f.c.iterations); }},
          {"gflops_mean",
           [](const RF& f) {
             return when(f.timed,
                         f.item.value("gflop_per_iteration") * f.c.iterations / f.time.mean);
           }},
          {"setup_s", [](const RF& f) { return fmt_double(f.c.setup_s); }},
          {"initial_loss", [](const RF& f) { return fmt_double(f.c.initial_loss); }},
          {"low_confidence_runs", [](const RF& f) { return f.timed ? count(f.low) : ""; }},
          {"throttled_runs", [](const RF& f) { return f.timed ? count(f.throttled) : ""; }},
          {"baseline_w", [](const RF& f) { return fmt_double(f.c.baseline_w); }},
          {"frozen_runs", [](const RF& f) { return f.timed ? count(f.frozen) : ""; }},
          {"lag_correction_s",
           [](const RF& f) { return f.timed && f.have_energy ? fmt_double(f.lag_s) : ""; }},
          {"time_per_sample_s_mean",
           [](const RF& f) {
             return when(f.timed && f.per_sample > 0, f.time.mean / f.per_sample);
           }},
          {"time_per_sample_s_ci95",
           [](const RF& f) {
             return when(f.timed && f.per_sample > 0, f.time.ci95 / f.per_sample);
           }},
          {"energy_per_sample_j_mean",
           [](const RF& f) {
             return when(f.have_energy && f.per_sample > 0, f.energy.mean / f.per_sample);
           }},
          {"energy_per_sample_j_ci95",
           [](const RF& f) {
             return when(f.have_energy && f.per_sample > 0, f.energy.ci95 / f.per_sample);
           }},
          {"operating_point", [](const RF& f) { return f.c.operating_point; }},
          {"stop_reason", [](const RF& f) { return f.c.stop_reason; }},
          {"study", [](const RF& f) { return f.c.study; }},
          {"key", [](const RF& f) { return f.c.key; }},
          {"disturbed_runs", [](const RF& f) { return count(f.disturbed); }},
      }};
  return schema;
}

// One row of runs.csv: a run of a part.
struct RunRow {
  const PartRecord& c;
  const RunRecord& r;
};

const CsvSchema<RunRow>& runs_schema() {
  // DESIGN §5: the required columns first, in this order, then extras.
  using R = RunRow;
  static const CsvSchema<R> schema{
      {
          {"workload", [](const R& x) { return x.c.workload; }},
          {"size", [](const R& x) { return x.c.size; }},
          {"device", [](const R& x) { return x.c.device; }},
          {"run", [](const R& x) { return count(x.r.run); }},
          {"time_s", [](const R& x) { return fmt_double(x.r.time_s); }},
          {"energy_j", [](const R& x) { return fmt_double(x.r.energy_j); }},
          {"dynamic_energy_j", [](const R& x) { return fmt_double(x.r.dynamic_energy_j); }},
          {"edp_js", [](const R& x) { return fmt_double(x.r.edp_js); }},
          {"power_w_mean", [](const R& x) { return fmt_double(x.r.power_w_mean); }},
          {"samples", [](const R& x) { return count(static_cast<int64_t>(x.r.samples)); }},
          {"final_loss", [](const R& x) { return fmt_double(x.r.final_loss); }},
          {"start_unix_s", [](const R& x) { return fmt_fixed(x.r.start_unix_s, 6); }},
          {"end_unix_s", [](const R& x) { return fmt_fixed(x.r.end_unix_s, 6); }},
          {"start_monotonic_s", [](const R& x) { return fmt_fixed(x.r.start_monotonic_s, 6); }},
          {"end_monotonic_s", [](const R& x) { return fmt_fixed(x.r.end_monotonic_s, 6); }},
          {"update_interval_s", [](const R& x) { return fmt_double(x.r.update_interval_s); }},
          {"distinct_values",
           [](const R& x) { return count(static_cast<int64_t>(x.r.distinct_values)); }},
          {"largest_gap_s", [](const R& x) { return fmt_double(x.r.largest_gap_s); }},
          {"lag_correction_s", [](const R& x) { return fmt_double(x.r.lag_correction_s); }},
          {"read_failures",
           [](const R& x) { return count(static_cast<int64_t>(x.r.read_failures)); }},
          {"missed_deadlines",
           [](const R& x) { return count(static_cast<int64_t>(x.r.missed_deadlines)); }},
          {"low_confidence", [](const R& x) { return b(x.r.low_confidence); }},
      },
      {
          {"frozen", [](const R& x) { return b(x.r.frozen); }},
          {"anomalies", [](const R& x) { return count(static_cast<int64_t>(x.r.anomalies)); }},
          {"gpu_time_s", [](const R& x) { return fmt_double(x.r.gpu_time_s); }},
          {"blocks", [](const R& x) { return count(x.r.blocks); }},
          {"throttled", [](const R& x) { return b(x.r.throttled); }},
          {"start_temp_c", [](const R& x) { return fmt_double(x.r.start_temp_c); }},
          {"end_temp_c", [](const R& x) { return fmt_double(x.r.end_temp_c); }},
          {"start_cpu_mhz", [](const R& x) { return fmt_double(x.r.start_cpu_mhz); }},
          {"end_cpu_mhz", [](const R& x) { return fmt_double(x.r.end_cpu_mhz); }},
          {"start_gpu_mhz", [](const R& x) { return fmt_double(x.r.start_gpu_mhz); }},
          {"end_gpu_mhz", [](const R& x) { return fmt_double(x.r.end_gpu_mhz); }},
          {"note", [](const R& x) { return x.r.note; }},
          {"operating_point", [](const R& x) { return x.c.operating_point; }},
          {"study", [](const R& x) { return x.c.study; }},
          {"key", [](const R& x) { return x.c.key; }},
          {"cpu_share", [](const R& x) { return fmt_double(x.r.cpu_share); }},
          {"preempted_share", [](const R& x) { return fmt_double(x.r.preempted_share); }},
          {"others_cpu_share", [](const R& x) { return fmt_double(x.r.others_cpu_share); }},
          {"disturbed", [](const R& x) { return b(x.r.disturbed); }},
      }};
  return schema;
}

// One row of rails.csv: a rail of a run of a part.
struct RailRow {
  const PartRecord& c;
  const RunRecord& r;
  const RailEnergy& e;
};

const CsvSchema<RailRow>& rails_schema() {
  using R = RailRow;
  static const CsvSchema<R> schema{
      {
          {"workload", [](const R& x) { return x.c.workload; }},
          {"size", [](const R& x) { return x.c.size; }},
          {"device", [](const R& x) { return x.c.device; }},
          {"run", [](const R& x) { return count(x.r.run); }},
          {"rail", [](const R& x) { return x.e.rail; }},
          {"energy_j", [](const R& x) { return fmt_double(x.e.energy_j); }},
          {"power_w_mean", [](const R& x) { return fmt_double(x.e.power_w_mean); }},
      },
      {
          {"study", [](const R& x) { return x.c.study; }},
          {"key", [](const R& x) { return x.c.key; }},
      }};
  return schema;
}

}  // namespace

const std::vector<std::string>& required_result_columns() {
  return results_schema().required_names();
}
const std::vector<std::string>& results_columns() { return results_schema().names(); }
const std::vector<std::string>& required_runs_columns() { return runs_schema().required_names(); }
const std::vector<std::string>& runs_columns() { return runs_schema().names(); }
const std::vector<std::string>& required_rails_columns() { return rails_schema().required_names(); }
const std::vector<std::string>& rails_columns() { return rails_schema().names(); }

std::vector<std::string> results_row(const ItemRecord& rec, const PartRecord& c) {
  return results_schema().row(ResultFigures(rec, c));
}

std::vector<std::string> runs_row(const PartRecord& c, const RunRecord& r) {
  return runs_schema().row({c, r});
}

std::vector<std::vector<std::string>> runs_rows(const PartRecord& c) {
  std::vector<std::vector<std::string>> rows;
  for (const RunRecord& r : c.run_records) rows.push_back(runs_schema().row({c, r}));
  return rows;
}

std::vector<std::vector<std::string>> rails_rows(const PartRecord& c) {
  std::vector<std::vector<std::string>> rows;
  for (const RunRecord& r : c.run_records)
    for (const RailEnergy& e : r.rails) rows.push_back(rails_schema().row({c, r, e}));
  return rows;
}

}  // namespace edp::report
