// ops.csv (DESIGN §9.1): one row per operator item, from its record alone
// plus the ceilings the sweep measured on the same device (fma_peak, copy).
#pragma once

#include <string>
#include <vector>

#include "report/csv.h"
#include "report/records.h"

namespace edp::report {

// The DESIGN §9.1 columns in order, then extras.
const std::vector<std::string>& ops_required_columns();
const std::vector<std::string>& ops_columns();

// Per-step figures of an operator item: the op part alone, or, for the cold
// variant, the op-with-flush part minus the flush part (the flush is
// measured as its own workload, since energy cannot be split per step).
// Every figure comes from the median run (issue 26; docs/ops.md): energy_j
// is the median energy per step, power_w_mean the median of the runs'
// window-mean power; the CIs are those of the mean (Student t), the spread
// the median is quoted with.
struct OpFigures {
  double time_s_median = NAN, time_s_ci95 = NAN;  // per step
  double energy_j = NAN, energy_j_ci95 = NAN;     // per step, median
  double power_w_mean = NAN;                      // median over runs of the window mean
  double flop = NAN, bytes = NAN;                 // per step
  double gflops = NAN, gbs = NAN;
};
OpFigures op_figures(const ItemRecord& rec);

// The row; measured_* are the device's measured ceilings (NaN when this
// sweep has not measured them: fma_peak and the largest warm copy).
std::vector<std::string> ops_row(const ItemRecord& rec, double measured_gflops,
                                 double measured_gbs);

// The values of ops.csv's ok rows as the study writes them: each number
// column empty or a decimal number of magnitude at most kOpsMaxMagnitude,
// and none below zero but a cold row's time and energy per op (the op with
// the flush, less the flush: a difference). Throws edp::UsageError naming
// `path`, the line, the column and the value: the report drew -1 s and
// 1e308 GFLOP/s.
inline constexpr double kOpsMaxMagnitude = 1e15;
void check_ops_values(const CsvTable& table, const std::string& path);

}  // namespace edp::report
