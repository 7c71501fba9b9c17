#include "report/results_csv.h"
#include "report/columns.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <stdexcept>

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
          {col::workload, [](const RF& f) { return f.c.workload; }},
          {col::size, [](const RF& f) { return f.c.size; }},
          {col::n, [](const RF& f) { return whole(f.item.value("n")); }},
          {col::d_in, [](const RF& f) { return whole(f.item.value("d_in")); }},
          {col::h, [](const RF& f) { return whole(f.item.value("h")); }},
          {col::d_out, [](const RF& f) { return whole(f.item.value("d_out")); }},
          {col::device, [](const RF& f) { return f.c.device; }},
          {col::threads, [](const RF& f) { return count(f.c.threads); }},
          {col::iterations, [](const RF& f) { return count(f.c.iterations); }},
          {col::runs,
           [](const RF& f) { return count(static_cast<int64_t>(f.c.run_records.size())); }},
          {col::status, [](const RF& f) { return f.c.status; }},
          {col::time_s_mean, [](const RF& f) { return when(f.timed, f.time.mean); }},
          {col::time_s_std, [](const RF& f) { return when(f.timed, f.time.std); }},
          {col::time_s_ci95, [](const RF& f) { return when(f.timed, f.time.ci95); }},
          {col::energy_j_mean, [](const RF& f) { return when(f.have_energy, f.energy.mean); }},
          {col::energy_j_std, [](const RF& f) { return when(f.have_energy, f.energy.std); }},
          {col::energy_j_ci95, [](const RF& f) { return when(f.have_energy, f.energy.ci95); }},
          {col::dynamic_energy_j_mean, [](const RF& f) { return when(f.dyn_ok, f.dyn.mean); }},
          {col::power_w_mean, [](const RF& f) { return when(f.have_energy, f.power.mean); }},
          {col::edp_js_mean, [](const RF& f) { return when(f.have_energy, f.edp.mean); }},
          {col::edp_js_std, [](const RF& f) { return when(f.have_energy, f.edp.std); }},
          {col::power_source, [](const RF& f) { return f.c.power_source; }},
          {col::energy_rails, [](const RF& f) { return f.c.energy_rails; }},
          {col::samples_per_run,
           [](const RF& f) {
             return f.samples.empty() || !f.have_energy ? "" : fmt_double(mean(f.samples));
           }},
          {col::final_loss,
           [](const RF& f) {
             return fmt_double(f.c.run_records.empty() ? NAN : f.c.run_records.back().final_loss);
           }},
          {col::diverged, [](const RF& f) { return f.timed ? b(f.c.diverged) : ""; }},
          {col::note, [](const RF& f) { return f.c.note; }},
      },
      {
          {col::time_s_median, [](const RF& f) { return when(f.timed, f.time.median); }},
          {col::time_s_min, [](const RF& f) { return when(f.timed, f.time.min); }},
          {col::energy_j_median, [](const RF& f) { return when(f.have_energy, f.energy.median); }},
          {col::energy_j_min, [](const RF& f) { return when(f.have_energy, f.energy.min); }},
          {col::dynamic_energy_j_std, [](const RF& f) { return when(f.dyn_ok, f.dyn.std); }},
          {col::dynamic_energy_j_ci95, [](const RF& f) { return when(f.dyn_ok, f.dyn.ci95); }},
          {col::dynamic_energy_j_median, [](const RF& f) { return when(f.dyn_ok, f.dyn.median); }},
          {col::dynamic_energy_j_min, [](const RF& f) { return when(f.dyn_ok, f.dyn.min); }},
          {col::edp_js_ci95, [](const RF& f) { return when(f.have_energy, f.edp.ci95); }},
          {col::edp_js_median, [](const RF& f) { return when(f.have_energy, f.edp.median); }},
          {col::edp_js_min, [](const RF& f) { return when(f.have_energy, f.edp.min); }},
          {col::ed2p_js2_mean, [](const RF& f) { return when(f.have_energy, f.ed2p.mean); }},
          {col::gpu_time_s_mean,
           [](const RF& f) { return f.gpu.empty() ? "" : fmt_double(mean(f.gpu)); }},
          {col::time_per_iteration_s_mean,
           [](const RF& f) { return when(f.timed, f.time.mean / f.c.iterations); }},
          {col::gflops_mean,
           [](const RF& f) {
             return when(f.timed,
                         f.item.value("gflop_per_iteration") * f.c.iterations / f.time.mean);
           }},
          {col::setup_s, [](const RF& f) { return fmt_double(f.c.setup_s); }},
          {col::initial_loss, [](const RF& f) { return fmt_double(f.c.initial_loss); }},
          {col::low_confidence_runs, [](const RF& f) { return f.timed ? count(f.low) : ""; }},
          {col::throttled_runs, [](const RF& f) { return f.timed ? count(f.throttled) : ""; }},
          {col::baseline_w, [](const RF& f) { return fmt_double(f.c.baseline_w); }},
          {col::frozen_runs, [](const RF& f) { return f.timed ? count(f.frozen) : ""; }},
          {col::lag_correction_s,
           [](const RF& f) { return f.timed && f.have_energy ? fmt_double(f.lag_s) : ""; }},
          {col::time_per_sample_s_mean,
           [](const RF& f) {
             return when(f.timed && f.per_sample > 0, f.time.mean / f.per_sample);
           }},
          {col::time_per_sample_s_ci95,
           [](const RF& f) {
             return when(f.timed && f.per_sample > 0, f.time.ci95 / f.per_sample);
           }},
          {col::energy_per_sample_j_mean,
           [](const RF& f) {
             return when(f.have_energy && f.per_sample > 0, f.energy.mean / f.per_sample);
           }},
          {col::energy_per_sample_j_ci95,
           [](const RF& f) {
             return when(f.have_energy && f.per_sample > 0, f.energy.ci95 / f.per_sample);
           }},
          {col::operating_point, [](const RF& f) { return f.c.operating_point; }},
          {col::stop_reason, [](const RF& f) { return f.c.stop_reason; }},
          {col::study, [](const RF& f) { return f.c.study; }},
          {col::key, [](const RF& f) { return f.c.key; }},
          {col::disturbed_runs, [](const RF& f) { return count(f.disturbed); }},
      }};
  return schema;
}

// One row of runs.csv: a run of a part.
struct RunRow {
  const PartRecord& c;
  const RunRecord& r;
};

// A window field's text in a CSV cell, by its kind (edpbench/window_fields.h):
// clocks with microseconds, NaN as "", counts and flags as written.
enum class FieldKind { value, measured, clock, text };
std::string field_text(double v, FieldKind kind) {
  return kind == FieldKind::clock ? fmt_fixed(v, 6) : fmt_double(v);
}
std::string field_text(uint64_t v, FieldKind) { return count(static_cast<int64_t>(v)); }
std::string field_text(bool v, FieldKind) { return b(v); }
std::string field_text(const std::string& v, FieldKind) { return v; }

// The runs.csv column of each window field, named and formatted by the
// table; runs_schema() lists which of them runs.csv has, in its order.
const std::map<std::string, Column<RunRow>>& window_columns() {
  static const std::map<std::string, Column<RunRow>> columns = [] {
    std::map<std::string, Column<RunRow>> m;
#define EDP_WINDOW_COLUMN(type, field, initial, kind)                               \
  m.emplace(#field, Column<RunRow>{#field, [](const RunRow& x) {                    \
                                     return field_text(x.r.field, FieldKind::kind); \
                                   }});
    EDPBENCH_WINDOW_FIELDS(EDP_WINDOW_COLUMN)
#undef EDP_WINDOW_COLUMN
    return m;
  }();
  return columns;
}

// Throws std::logic_error for a name the window's table does not have.
Column<RunRow> window_column(const std::string& name) {
  const auto it = window_columns().find(name);
  if (it == window_columns().end())
    throw std::logic_error("runs.csv names '" + name + "', which is no window field");
  return it->second;
}

const CsvSchema<RunRow>& runs_schema() {
  // DESIGN §5: the required columns first, in this order, then extras.
  using R = RunRow;
  static const CsvSchema<R> schema{
      {
          {col::workload, [](const R& x) { return x.c.workload; }},
          {col::size, [](const R& x) { return x.c.size; }},
          {col::device, [](const R& x) { return x.c.device; }},
          {col::run, [](const R& x) { return count(x.r.run); }},
          window_column(col::time_s),
          window_column(col::energy_j),
          window_column(col::dynamic_energy_j),
          window_column(col::edp_js),
          window_column(col::power_w_mean),
          window_column(col::samples),
          {col::final_loss, [](const R& x) { return fmt_double(x.r.final_loss); }},
          window_column(col::start_unix_s),
          window_column(col::end_unix_s),
          window_column(col::start_monotonic_s),
          window_column(col::end_monotonic_s),
          window_column(col::update_interval_s),
          window_column(col::distinct_values),
          window_column(col::largest_gap_s),
          window_column(col::lag_correction_s),
          window_column(col::read_failures),
          window_column(col::missed_deadlines),
          window_column(col::low_confidence),
      },
      {
          window_column(col::frozen),
          window_column(col::anomalies),
          {col::gpu_time_s, [](const R& x) { return fmt_double(x.r.gpu_time_s); }},
          {col::blocks, [](const R& x) { return count(x.r.blocks); }},
          {col::throttled, [](const R& x) { return b(x.r.throttled); }},
          {col::start_temp_c, [](const R& x) { return fmt_double(x.r.start_temp_c); }},
          {col::end_temp_c, [](const R& x) { return fmt_double(x.r.end_temp_c); }},
          {col::start_cpu_mhz, [](const R& x) { return fmt_double(x.r.start_cpu_mhz); }},
          {col::end_cpu_mhz, [](const R& x) { return fmt_double(x.r.end_cpu_mhz); }},
          {col::start_gpu_mhz, [](const R& x) { return fmt_double(x.r.start_gpu_mhz); }},
          {col::end_gpu_mhz, [](const R& x) { return fmt_double(x.r.end_gpu_mhz); }},
          window_column(col::note),
          {col::operating_point, [](const R& x) { return x.c.operating_point; }},
          {col::study, [](const R& x) { return x.c.study; }},
          {col::key, [](const R& x) { return x.c.key; }},
          window_column(col::cpu_share),
          window_column(col::preempted_share),
          window_column(col::others_cpu_share),
          window_column(col::disturbed),
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
          {col::workload, [](const R& x) { return x.c.workload; }},
          {col::size, [](const R& x) { return x.c.size; }},
          {col::device, [](const R& x) { return x.c.device; }},
          {col::run, [](const R& x) { return count(x.r.run); }},
          {col::rail, [](const R& x) { return x.e.rail; }},
          {col::energy_j, [](const R& x) { return fmt_double(x.e.energy_j); }},
          {col::power_w_mean, [](const R& x) { return fmt_double(x.e.power_w_mean); }},
      },
      {
          {col::study, [](const R& x) { return x.c.study; }},
          {col::key, [](const R& x) { return x.c.key; }},
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
