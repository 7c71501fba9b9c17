// ops.csv rows (see ops_csv.h).
#include "report/ops_csv.h"
#include "report/columns.h"

#include <algorithm>
#include <cmath>

#include "common/errors.h"
#include "common/safe_file.h"
#include "report/csv.h"
#include "report/csv_schema.h"
#include "report/stats.h"

namespace edp::report {
namespace {

struct OpPerStep {
  Summary time, energy, power;
};

OpPerStep op_per_step(const PartRecord& c) {
  std::vector<double> t, e, p;
  for (const RunRecord& r : c.run_records) {
    t.push_back(r.time_s / c.iterations);
    if (!std::isnan(r.energy_j)) e.push_back(r.energy_j / c.iterations);
    if (!std::isnan(r.power_w_mean)) p.push_back(r.power_w_mean);
  }
  OpPerStep s;
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

OpFigures op_figures(const ItemRecord& rec) {
  OpFigures f;
  if (rec.parts.empty() || rec.parts[0].run_records.empty()) return f;
  const PartRecord& op = rec.parts[0];
  const OpPerStep a = op_per_step(op);
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
    const PartRecord& flush = rec.parts[1];
    const OpPerStep b = op_per_step(flush);
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

namespace {

// What an ops.csv row is computed from: the item, its figures and the peaks
// it is compared with.
struct OpsRow {
  const ItemRecord& rec;
  const PartRecord* op;  // the op's own part (first), or nullptr
  OpFigures f;
  double peak_gflops, peak_gbs, measured_gflops, measured_gbs;
  double attainable, measured_attainable;
  bool timed;

  OpsRow(const ItemRecord& r, double measured_gflops_in, double measured_gbs_in)
      : rec(r),
        op(r.parts.empty() ? nullptr : &r.parts[0]),
        f(op_figures(r)),
        measured_gflops(measured_gflops_in),
        measured_gbs(measured_gbs_in) {
    peak_gflops = rec.value("peak_flops_at_clock") / 1e9;
    if (std::isnan(peak_gflops)) peak_gflops = rec.value("peak_flops_nominal") / 1e9;
    peak_gbs = rec.value("peak_bytes_per_s") / 1e9;
    if (std::isnan(peak_gbs)) peak_gbs = measured_gbs;  // no board table: the measured copy
    attainable = attainable_gflops(f.flop, f.bytes, peak_gflops, peak_gbs);
    measured_attainable = attainable_gflops(f.flop, f.bytes, measured_gflops, measured_gbs);
    timed = !std::isnan(f.time_s_median);
  }
};

const CsvSchema<OpsRow>& ops_schema() {
  // DESIGN §9.1: the required columns first, in this order; then extras.
  // Every figure is the median run's (issue 26, see op_figures).
  using R = OpsRow;
  static const CsvSchema<R> schema{
      {
          {col::op, [](const R& x) { return x.rec.param("op"); }},
          {col::bytes,
           [](const R& x) {
             return x.op && x.op->bytes_per_step > 0 ? fmt_double(x.op->bytes_per_step) : "";
           }},
          {col::n, [](const R& x) { return x.rec.param("n"); }},
          {col::device, [](const R& x) { return x.rec.device; }},
          {col::threads, [](const R& x) { return x.op ? std::to_string(x.op->threads) : ""; }},
          {col::runs,
           [](const R& x) { return x.op ? std::to_string(x.op->run_records.size()) : "0"; }},
          {col::status, [](const R& x) { return x.rec.status; }},
          {col::time_s_median, [](const R& x) { return fmt_double(x.f.time_s_median); }},
          {col::time_s_ci95, [](const R& x) { return fmt_double(x.f.time_s_ci95); }},
          {col::flop, [](const R& x) { return fmt_double(x.f.flop); }},
          {col::bytes_moved, [](const R& x) { return fmt_double(x.f.bytes); }},
          {col::gflops, [](const R& x) { return fmt_double(x.f.gflops); }},
          {col::gbs, [](const R& x) { return fmt_double(x.f.gbs); }},
          {col::peak_gflops, [](const R& x) { return fmt_double(x.peak_gflops); }},
          {col::peak_gbs, [](const R& x) { return fmt_double(x.peak_gbs); }},
          {col::percent_of_peak,
           [](const R& x) { return x.timed ? fmt_double(percent(x.f.gflops, x.attainable)) : ""; }},
          {col::bound,
           [](const R& x) {
             return x.timed ? bound(x.f.flop, x.f.bytes, x.peak_gflops, x.peak_gbs) : "";
           }},
          {col::energy_per_op_j, [](const R& x) { return fmt_double(x.f.energy_j); }},
          {col::pj_per_flop,
           [](const R& x) {
             return x.f.flop > 0 ? fmt_double(x.f.energy_j / x.f.flop * 1e12) : "";
           }},
          {col::power_w_mean, [](const R& x) { return fmt_double(x.f.power_w_mean); }},
          {col::note, [](const R& x) { return x.rec.note; }},
      },
      {
          {col::variant, [](const R& x) { return x.rec.param("variant"); }},
          {col::shape, [](const R& x) { return x.rec.param("shape"); }},
          {col::percent_of_measured_peak,
           [](const R& x) {
             return x.timed ? fmt_double(percent(x.f.gflops, x.measured_attainable)) : "";
           }},
          {col::measured_peak_gflops, [](const R& x) { return fmt_double(x.measured_gflops); }},
          {col::measured_peak_gbs, [](const R& x) { return fmt_double(x.measured_gbs); }},
          {col::peak_gflops_nominal,
           [](const R& x) { return fmt_double(x.rec.value("peak_flops_nominal") / 1e9); }},
          {col::energy_per_op_j_ci95, [](const R& x) { return fmt_double(x.f.energy_j_ci95); }},
          {col::steps, [](const R& x) { return x.op ? std::to_string(x.op->iterations) : ""; }},
          {col::stop_reason, [](const R& x) { return x.op ? x.op->stop_reason : ""; }},
          {col::study, [](const R& x) { return x.rec.study; }},
          {col::key, [](const R& x) { return x.rec.key; }},
      }};
  return schema;
}

}  // namespace

const std::vector<std::string>& ops_required_columns() { return ops_schema().required_names(); }
const std::vector<std::string>& ops_columns() { return ops_schema().names(); }

std::vector<std::string> ops_row(const ItemRecord& rec, double measured_gflops,
                                 double measured_gbs) {
  return ops_schema().row(OpsRow(rec, measured_gflops, measured_gbs));
}

void check_ops_values(const CsvTable& t, const std::string& path) {
  static const char* const kNumbers[] = {col::bytes,
                                         col::n,
                                         col::runs,
                                         col::time_s_median,
                                         col::time_s_ci95,
                                         col::flop,
                                         col::bytes_moved,
                                         col::gflops,
                                         col::gbs,
                                         col::peak_gflops,
                                         col::peak_gbs,
                                         col::percent_of_peak,
                                         col::energy_per_op_j,
                                         col::pj_per_flop,
                                         col::power_w_mean,
                                         col::percent_of_measured_peak,
                                         col::measured_peak_gflops,
                                         col::measured_peak_gbs,
                                         col::peak_gflops_nominal,
                                         col::energy_per_op_j_ci95,
                                         col::steps};
  for (size_t r = 0; r < t.rows.size(); ++r) {
    if (t.get(r, col::status) != "ok") continue;
    const bool cold = t.get(r, col::variant) == "cold";
    for (const char* c : kNumbers) {
      const std::string cell = t.get(r, c);
      const std::string name = c;
      const bool difference = cold && (name == col::time_s_median || name == col::energy_per_op_j ||
                                       name == col::pj_per_flop);
      const std::string why = number_problem(cell, {difference, 0.0, kOpsMaxMagnitude});
      if (!why.empty())
        throw UsageError(path + " line " + std::to_string(t.line_of(r)) + ": " + name + " = '" +
                         escaped_excerpt(cell, 40) + "' is " + why +
                         " (the ops study writes no such value in an ok row: the file was edited "
                         "or is corrupt; restore it, or run the study again)");
    }
  }
}

}  // namespace edp::report
