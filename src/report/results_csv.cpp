#include "report/results_csv.h"

#include <algorithm>
#include <cstdio>

#include "report/csv.h"
#include "report/stats.h"

namespace edp::report {

const std::vector<std::string>& required_result_columns() {
  // DESIGN §5: the columns other tools rely on, in this order.
  static const std::vector<std::string> cols{"workload",
                                             "size",
                                             "n",
                                             "d_in",
                                             "h",
                                             "d_out",
                                             "device",
                                             "threads",
                                             "iterations",
                                             "runs",
                                             "status",
                                             "time_s_mean",
                                             "time_s_std",
                                             "time_s_ci95",
                                             "energy_j_mean",
                                             "energy_j_std",
                                             "energy_j_ci95",
                                             "dynamic_energy_j_mean",
                                             "power_w_mean",
                                             "edp_js_mean",
                                             "edp_js_std",
                                             "power_source",
                                             "energy_rails",
                                             "samples_per_run",
                                             "final_loss",
                                             "diverged",
                                             "note"};
  return cols;
}

const std::vector<std::string>& results_columns() {
  static const std::vector<std::string> cols = [] {
    std::vector<std::string> c = required_result_columns();
    for (const char* extra : {"time_s_median",
                              "time_s_min",
                              "energy_j_median",
                              "energy_j_min",
                              "dynamic_energy_j_std",
                              "dynamic_energy_j_ci95",
                              "dynamic_energy_j_median",
                              "dynamic_energy_j_min",
                              "edp_js_ci95",
                              "edp_js_median",
                              "edp_js_min",
                              "ed2p_js2_mean",
                              "gpu_time_s_mean",
                              "time_per_iteration_s",
                              "gflops",
                              "setup_s",
                              "initial_loss",
                              "low_confidence_runs",
                              "throttled_runs",
                              "baseline_w",
                              "frozen_runs",
                              "lag_correction_s",
                              "time_per_sample_s_mean",
                              "time_per_sample_s_ci95",
                              "energy_per_sample_j_mean",
                              "energy_per_sample_j_ci95",
                              "operating_point",
                              "stop_reason",
                              "study",
                              "key",
                              "disturbed_runs"})
      c.push_back(extra);
    return c;
  }();
  return cols;
}

const std::vector<std::string>& runs_columns() {
  // DESIGN §5: the required columns first, in this order, then extras.
  static const std::vector<std::string> cols{"workload",
                                             "size",
                                             "device",
                                             "run",
                                             "time_s",
                                             "energy_j",
                                             "dynamic_energy_j",
                                             "edp_js",
                                             "power_w_mean",
                                             "samples",
                                             "final_loss",
                                             "start_unix_s",
                                             "end_unix_s",
                                             "start_monotonic_s",
                                             "end_monotonic_s",
                                             "update_interval_s",
                                             "distinct_values",
                                             "largest_gap_s",
                                             "lag_correction_s",
                                             "read_failures",
                                             "missed_deadlines",
                                             "low_confidence",
                                             "frozen",
                                             "anomalies",
                                             "gpu_time_s",
                                             "blocks",
                                             "throttled",
                                             "start_temp_c",
                                             "end_temp_c",
                                             "start_cpu_mhz",
                                             "end_cpu_mhz",
                                             "start_gpu_mhz",
                                             "end_gpu_mhz",
                                             "note",
                                             "operating_point",
                                             "study",
                                             "key",
                                             "cpu_share",
                                             "preempted_share",
                                             "others_cpu_share",
                                             "disturbed"};
  return cols;
}

const std::vector<std::string>& rails_columns() {
  static const std::vector<std::string> cols{"workload", "size",         "device", "run", "rail",
                                             "energy_j", "power_w_mean", "study",  "key"};
  return cols;
}

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

// Values of a field over the runs that measured it (NaN skipped).
template <class F>
std::vector<double> collect(const ConfigRecord& c, F f) {
  std::vector<double> v;
  for (const RunRecord& r : c.run_records) {
    const double x = f(r);
    if (!std::isnan(x)) v.push_back(x);
  }
  return v;
}

}  // namespace

std::vector<std::string> results_row(const ConfigRecord& c) {
  const auto time = summarize(collect(c, [](const RunRecord& r) { return r.time_s; }));
  const auto energy = collect(c, [](const RunRecord& r) { return r.energy_j; });
  const auto dyn = collect(c, [](const RunRecord& r) { return r.dynamic_energy_j; });
  const auto power = collect(c, [](const RunRecord& r) { return r.power_w_mean; });
  const auto edp = collect(c, [](const RunRecord& r) { return r.edp_js; });
  const auto ed2p = collect(c, [](const RunRecord& r) { return r.energy_j * r.time_s * r.time_s; });
  const auto gpu = collect(c, [](const RunRecord& r) { return r.gpu_time_s; });
  const auto samples =
      collect(c, [](const RunRecord& r) { return static_cast<double>(r.samples); });
  // Energy statistics only when every run measured it: a partial set would
  // bias the mean without saying so.
  const bool have_energy = !c.run_records.empty() && energy.size() == c.run_records.size();
  const Summary e = have_energy ? summarize(energy) : Summary{};
  const Summary d = have_energy && dyn.size() == energy.size() ? summarize(dyn) : Summary{};
  const Summary p = have_energy ? summarize(power) : Summary{};
  const Summary x = have_energy ? summarize(edp) : Summary{};
  const Summary x2 = have_energy ? summarize(ed2p) : Summary{};
  auto f = [](bool ok, double v) { return ok ? fmt_double(v) : std::string(); };
  const bool dyn_ok = have_energy && dyn.size() == energy.size();
  int low = 0, thr = 0, frozen = 0, disturbed = 0;
  double lag_s = 0;
  for (const RunRecord& r : c.run_records) {
    low += r.low_confidence;
    disturbed += r.disturbed;
    thr += r.throttled;
    frozen += r.frozen;
    lag_s = std::max(lag_s, r.lag_correction_s);
  }
  const bool timed = time.n > 0;
  // Samples per run: N rows of x per iteration (DESIGN §9.2).
  const double per_sample = static_cast<double>(c.n) * c.iterations;
  const double final_loss = c.run_records.empty() ? NAN : c.run_records.back().final_loss;
  return {c.workload,
          c.size,
          std::to_string(c.n),
          std::to_string(c.d_in),
          std::to_string(c.h),
          std::to_string(c.d_out),
          c.device,
          std::to_string(c.threads),
          std::to_string(c.iterations),
          std::to_string(c.run_records.size()),
          c.status,
          f(timed, time.mean),
          f(timed, time.std),
          f(timed, time.ci95),
          f(have_energy, e.mean),
          f(have_energy, e.std),
          f(have_energy, e.ci95),
          f(dyn_ok, d.mean),
          f(have_energy, p.mean),
          f(have_energy, x.mean),
          f(have_energy, x.std),
          c.power_source,
          c.energy_rails,
          samples.empty() || !have_energy ? "" : fmt_double(mean(samples)),
          fmt_double(final_loss),
          timed ? b(c.diverged) : "",
          c.note,
          f(timed, time.median),
          f(timed, time.min),
          f(have_energy, e.median),
          f(have_energy, e.min),
          f(dyn_ok, d.std),
          f(dyn_ok, d.ci95),
          f(dyn_ok, d.median),
          f(dyn_ok, d.min),
          f(have_energy, x.ci95),
          f(have_energy, x.median),
          f(have_energy, x.min),
          f(have_energy, x2.mean),
          gpu.empty() ? "" : fmt_double(mean(gpu)),
          f(timed, time.mean / c.iterations),
          f(timed, c.gflop_per_iteration * c.iterations / time.mean),
          fmt_double(c.setup_s),
          fmt_double(c.initial_loss),
          timed ? std::to_string(low) : "",
          timed ? std::to_string(thr) : "",
          fmt_double(c.baseline_w),
          timed ? std::to_string(frozen) : "",
          timed && have_energy ? fmt_double(lag_s) : "",
          f(timed && per_sample > 0, time.mean / per_sample),
          f(timed && per_sample > 0, time.ci95 / per_sample),
          f(have_energy && per_sample > 0, e.mean / per_sample),
          f(have_energy && per_sample > 0, e.ci95 / per_sample),
          c.operating_point,
          c.stop_reason,
          c.study,
          c.key,
          std::to_string(disturbed)};
}

std::vector<std::vector<std::string>> runs_rows(const ConfigRecord& c) {
  std::vector<std::vector<std::string>> rows;
  for (const RunRecord& r : c.run_records) {
    rows.push_back({c.workload,
                    c.size,
                    c.device,
                    std::to_string(r.run),
                    fmt_double(r.time_s),
                    fmt_double(r.energy_j),
                    fmt_double(r.dynamic_energy_j),
                    fmt_double(r.edp_js),
                    fmt_double(r.power_w_mean),
                    std::to_string(r.samples),
                    fmt_double(r.final_loss),
                    fmt_fixed(r.start_unix_s, 6),
                    fmt_fixed(r.end_unix_s, 6),
                    fmt_fixed(r.start_monotonic_s, 6),
                    fmt_fixed(r.end_monotonic_s, 6),
                    fmt_double(r.update_interval_s),
                    std::to_string(r.distinct_values),
                    fmt_double(r.largest_gap_s),
                    fmt_double(r.lag_correction_s),
                    std::to_string(r.read_failures),
                    std::to_string(r.missed_deadlines),
                    b(r.low_confidence),
                    b(r.frozen),
                    std::to_string(r.anomalies),
                    fmt_double(r.gpu_time_s),
                    std::to_string(r.blocks),
                    b(r.throttled),
                    fmt_double(r.start_temp_c),
                    fmt_double(r.end_temp_c),
                    fmt_double(r.start_cpu_mhz),
                    fmt_double(r.end_cpu_mhz),
                    fmt_double(r.start_gpu_mhz),
                    fmt_double(r.end_gpu_mhz),
                    r.note,
                    c.operating_point,
                    c.study,
                    c.key,
                    fmt_double(r.cpu_share),
                    fmt_double(r.preempted_share),
                    fmt_double(r.others_cpu_share),
                    b(r.disturbed)});
  }
  return rows;
}

std::vector<std::vector<std::string>> rails_rows(const ConfigRecord& c) {
  std::vector<std::vector<std::string>> rows;
  for (const RunRecord& r : c.run_records)
    for (const RailEnergy& e : r.rails)
      rows.push_back({c.workload, c.size, c.device, std::to_string(r.run), e.rail,
                      fmt_double(e.energy_j), fmt_double(e.power_w_mean), c.study, c.key});
  return rows;
}

}  // namespace edp::report
