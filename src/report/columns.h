// The column names of edpbench's CSV files (results.csv, runs.csv,
// rails.csv, ops.csv, stages.csv, memory.csv; DESIGN §5, §9) as constants.
// The writers' schemas (results_csv.cpp, ops_csv.cpp, stages_csv.cpp) name
// their columns with them and the readers ask for columns by them, so a
// reader cannot ask for a column no writer has, and a renamed column is
// renamed for every reader (tests/report/test_csv_schemas.cpp checks that
// the constants and the schemas' columns are the same set).
//
// The window's fields (edpbench/window_fields.h) are runs.csv's columns of
// those names: their constants come from that table. The others are listed
// here once; a column shared by several files (workload, device, note) is
// one constant.
#pragma once

#include <string>
#include <vector>

#include "edpbench/window_fields.h"

// clang-format off
#define EDP_CSV_COLUMNS(X) \
  X(workload) X(size) X(n) X(d_in) \
  X(h) X(d_out) X(device) X(threads) \
  X(iterations) X(runs) X(status) X(time_s_mean) \
  X(time_s_std) X(time_s_ci95) X(energy_j_mean) X(energy_j_std) \
  X(energy_j_ci95) X(dynamic_energy_j_mean) X(edp_js_mean) X(edp_js_std) \
  X(power_source) X(energy_rails) X(samples_per_run) X(final_loss) \
  X(diverged) X(time_s_median) X(time_s_min) X(energy_j_median) \
  X(energy_j_min) X(dynamic_energy_j_std) X(dynamic_energy_j_ci95) X(dynamic_energy_j_median) \
  X(dynamic_energy_j_min) X(edp_js_ci95) X(edp_js_median) X(edp_js_min) \
  X(ed2p_js2_mean) X(gpu_time_s_mean) X(time_per_iteration_s_mean) X(gflops_mean) \
  X(setup_s) X(initial_loss) X(low_confidence_runs) X(throttled_runs) \
  X(frozen_runs) X(time_per_sample_s_mean) X(time_per_sample_s_ci95) X(energy_per_sample_j_mean) \
  X(energy_per_sample_j_ci95) X(operating_point) X(stop_reason) X(study) \
  X(key) X(disturbed_runs) X(run) X(gpu_time_s) \
  X(blocks) X(throttled) X(start_temp_c) X(end_temp_c) \
  X(start_cpu_mhz) X(end_cpu_mhz) X(start_gpu_mhz) X(end_gpu_mhz) \
  X(rail) X(op) X(bytes) X(flop) \
  X(bytes_moved) X(gflops) X(gbs) X(peak_gflops) \
  X(peak_gbs) X(percent_of_peak) X(bound) X(energy_per_op_j) \
  X(pj_per_flop) X(variant) X(shape) X(percent_of_measured_peak) \
  X(measured_peak_gflops) X(measured_peak_gbs) X(peak_gflops_nominal) X(energy_per_op_j_ci95) \
  X(steps) X(stage) X(share) X(compute_efficiency) \
  X(time_s_profiled) X(compute_efficiency_measured) X(relu) X(tensor) \
  X(kind) X(bytes_computed) X(bytes_measured)
// clang-format on

namespace edp::report::col {

#define EDP_WINDOW_COLUMN_NAME(type, name, initial, kind) inline constexpr char name[] = #name;
EDPBENCH_WINDOW_FIELDS(EDP_WINDOW_COLUMN_NAME)
#undef EDP_WINDOW_COLUMN_NAME

#define EDP_COLUMN_NAME(name) inline constexpr char name[] = #name;
EDP_CSV_COLUMNS(EDP_COLUMN_NAME)
#undef EDP_COLUMN_NAME

// Every constant above, once.
inline const std::vector<std::string>& all() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
#define EDP_WINDOW_COLUMN_NAME(type, name, initial, kind) out.push_back(#name);
    EDPBENCH_WINDOW_FIELDS(EDP_WINDOW_COLUMN_NAME)
#undef EDP_WINDOW_COLUMN_NAME
#define EDP_COLUMN_NAME(name) out.push_back(#name);
    EDP_CSV_COLUMNS(EDP_COLUMN_NAME)
#undef EDP_COLUMN_NAME
    return out;
  }();
  return names;
}

}  // namespace edp::report::col
