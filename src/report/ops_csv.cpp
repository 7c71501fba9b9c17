// ops.csv rows (see ops_csv.h).
#include "report/ops_csv.h"

#include <algorithm>
#include <cmath>

#include "report/csv.h"
#include "report/stats.h"

namespace edp::report {
namespace {

struct PerStep {
  Summary time, energy, power;
};

PerStep per_step(const ConfigRecord& c) {
  std::vector<double> t, e, p;
  for (const RunRecord& r : c.run_records) {
    t.push_back(r.time_s / c.iterations);
    if (!std::isnan(r.energy_j)) e.push_back(r.energy_j / c.iterations);
    if (!std::isnan(r.power_w_mean)) p.push_back(r.power_w_mean);
  }
  PerStep s;
  s.time = summarize(t);
  if (!e.empty() && e.size() == t.size()) s.energy = summarize(e);
  if (!p.empty()) s.power = summarize(p);
  return s;
}

// The attainable rate of the roofline at the op's intensity.
double attainable_gflops(double flop, double bytes, double peak_gflops, double peak_gbs) {
  if (!(bytes > 0)) return peak_gflops;
  return std::min(peak_gflops, flop / bytes * peak_gbs);
}

double percent(double achieved, double peak) {
  return peak > 0 && !std::isnan(achieved) ? 100 * achieved / peak : NAN;
}

std::string bound(double flop, double bytes, double peak_gflops, double peak_gbs) {
  if (!(bytes > 0)) return "compute";
  if (std::isnan(peak_gflops) || std::isnan(peak_gbs) || !(peak_gbs > 0)) return "";
  return flop / bytes < peak_gflops / peak_gbs ? "memory" : "compute";
}

}  // namespace

const std::vector<std::string>& ops_required_columns() {
  static const std::vector<std::string> cols{"op",          "bytes",
                                             "n",           "device",
                                             "threads",     "runs",
                                             "status",      "time_s_median",
                                             "time_s_ci95", "flop",
                                             "bytes_moved", "gflops",
                                             "gbs",         "peak_gflops",
                                             "peak_gbs",    "percent_of_peak",
                                             "bound",       "energy_per_op_j",
                                             "pj_per_flop", "power_w_mean",
                                             "note"};
  return cols;
}

const std::vector<std::string>& ops_columns() {
  static const std::vector<std::string> cols = [] {
    std::vector<std::string> c = ops_required_columns();
    for (const char* extra : {"variant", "shape", "percent_of_measured_peak",
                              "measured_peak_gflops", "measured_peak_gbs", "peak_gflops_nominal",
                              "energy_per_op_j_ci95", "steps", "stop_reason", "study", "key"})
      c.push_back(extra);
    return c;
  }();
  return cols;
}

OpFigures op_figures(const ItemRecord& rec) {
  OpFigures f;
  if (rec.parts.empty() || rec.parts[0].run_records.empty()) return f;
  const ConfigRecord& op = rec.parts[0];
  const PerStep a = per_step(op);
  f.flop = op.flop_per_step;
  f.bytes = op.bytes_per_step;
  f.time_s_median = a.time.median;
  f.time_s_ci95 = a.time.ci95;
  // One statistic for the whole row (issue 26): the median run's time,
  // energy and window power, so energy per op, pJ/FLOP, GFLOP/s and GB/s all
  // describe the same runs (the median resists a run a neighbour preempted).
  f.energy_j = a.energy.n ? a.energy.median : NAN;
  f.energy_j_ci95 = a.energy.n ? a.energy.ci95 : NAN;
  f.power_w_mean = a.power.n ? a.power.median : NAN;
  if (rec.parts.size() > 1 && !rec.parts[1].run_records.empty()) {
    // Cold: subtract the flush, measured the same way and summarised by the
    // same statistic (the median) for time and energy; CIs add in quadrature.
    const ConfigRecord& flush = rec.parts[1];
    const PerStep b = per_step(flush);
    f.time_s_median = a.time.median - b.time.median;
    f.time_s_ci95 = std::hypot(a.time.ci95, b.time.ci95);
    f.energy_j = a.energy.n && b.energy.n ? a.energy.median - b.energy.median : NAN;
    f.energy_j_ci95 = a.energy.n && b.energy.n ? std::hypot(a.energy.ci95, b.energy.ci95) : NAN;
    // The cold op's counts are the op's own (the flush is not counted in them).
  }
  if (f.time_s_median > 0) {
    f.gflops = f.flop / f.time_s_median / 1e9;
    f.gbs = f.bytes / f.time_s_median / 1e9;
  }
  return f;
}

std::vector<std::string> ops_row(const ItemRecord& rec, double measured_gflops,
                                 double measured_gbs) {
  const OpFigures f = op_figures(rec);
  const ConfigRecord* op = rec.parts.empty() ? nullptr : &rec.parts[0];
  double peak_gflops = rec.value("peak_flops_at_clock") / 1e9;
  if (std::isnan(peak_gflops)) peak_gflops = rec.value("peak_flops_nominal") / 1e9;
  double peak_gbs = rec.value("peak_bytes_per_s") / 1e9;
  if (std::isnan(peak_gbs)) peak_gbs = measured_gbs;  // no board table: the measured copy
  const double attainable = attainable_gflops(f.flop, f.bytes, peak_gflops, peak_gbs);
  const double measured_attainable =
      attainable_gflops(f.flop, f.bytes, measured_gflops, measured_gbs);
  const bool timed = !std::isnan(f.time_s_median);
  auto num = [](double v) { return fmt_double(v); };
  return {rec.param("op"),
          op && op->bytes_per_step > 0 ? num(op->bytes_per_step) : "",
          rec.param("n"),
          rec.device,
          op ? std::to_string(op->threads) : "",
          op ? std::to_string(op->run_records.size()) : "0",
          rec.status,
          num(f.time_s_median),
          num(f.time_s_ci95),
          num(f.flop),
          num(f.bytes),
          num(f.gflops),
          num(f.gbs),
          num(peak_gflops),
          num(peak_gbs),
          timed ? num(percent(f.gflops, attainable)) : "",
          timed ? bound(f.flop, f.bytes, peak_gflops, peak_gbs) : "",
          num(f.energy_j),
          f.flop > 0 ? num(f.energy_j / f.flop * 1e12) : "",
          num(f.power_w_mean),
          rec.note,
          rec.param("variant"),
          rec.param("shape"),
          timed ? num(percent(f.gflops, measured_attainable)) : "",
          num(measured_gflops),
          num(measured_gbs),
          num(rec.value("peak_flops_nominal") / 1e9),
          num(f.energy_j_ci95),
          op ? std::to_string(op->iterations) : "",
          op ? op->stop_reason : "",
          rec.study,
          rec.key};
}

}  // namespace edp::report
