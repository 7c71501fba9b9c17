// Plain records the runner fills and the writers only read (google/benchmark
// style). Units are in every name; NaN means "not measured".
#pragma once

#include <cmath>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "edpbench/window_fields.h"

namespace edp::report {

struct RailEnergy {
  std::string rail;
  double energy_j = NAN;
  double power_w_mean = NAN;
};

// One window of a run (runs.csv). Its measurement and evidence are the
// window's field table (edpbench/window_fields.h: time, energy, dynamic
// energy, EDP, mean power, the baseline, the edges on both clocks, what the
// sensor did, interference, note), which the monitor's WindowResult, the
// runs.csv columns and `measure --json` share; the rest is the protocol's.
struct RunRecord {
  int run = 0;  // 1-based
  EDPBENCH_WINDOW_FIELDS(EDPBENCH_WINDOW_MEMBER)
  double gpu_time_s = NAN;  // CUDA-event time of the same steps, if any
  // Of missed_deadlines, those a slow sensor read used up (the thread started
  // on time): not written to runs.csv, used to judge interference.
  uint64_t missed_in_slow_reads = 0;
  double final_loss = NAN;
  int blocks = 1;                                 // iteration blocks repeated to reach min_run_s
  bool throttled = false;                         // a clock fell below nominal during the run
  double start_temp_c = NAN, end_temp_c = NAN;    // hottest thermal zone
  double start_cpu_mhz = NAN, end_cpu_mhz = NAN;  // mean clock of the run's CPUs
  double start_gpu_mhz = NAN, end_gpu_mhz = NAN;
  std::vector<RailEnergy> rails;
};

// One part of a plan item measured with the full protocol (DESIGN §3): the
// MLP step, a stage workload or an operator. `workload` is the part's name.
struct PartRecord {
  std::string study = "mlp", key;  // the plan item it belongs to
  std::string workload, size, device;
  int threads = 0;
  int iterations = 0, runs = 0;
  std::string status = "ok";  // ok | failed | skipped
  double setup_s = NAN;
  // The workload's result() (the MLP's loss) after the first warm-up step,
  // and whether the last run's is worse or not finite.
  double initial_loss = NAN;
  bool diverged = false;
  std::string power_source = "none";
  std::string energy_rails;  // "VDD_IN" or "package-0+gpu0"
  double baseline_w = NAN;   // idle power of the total rails the dynamic energy used
  double flop_per_step = NAN, bytes_per_step = NAN;
  std::string operating_point;  // "" when the sweep has none
  std::string stop_reason;      // why the runs stopped (runs reached, CI reached, time limit)
  std::string note;
  std::vector<RunRecord> run_records;
};

// One plan item (DESIGN §9): its parts, each measured with the protocol, and
// whatever the study adds (values with units in their names).
struct ItemRecord {
  std::string study, key, label;
  std::vector<std::pair<std::string, std::string>> params;
  std::string device;
  std::string status = "ok";  // ok | failed | skipped: the worst of the parts
  std::string note;
  std::vector<PartRecord> parts;
  std::map<std::string, double> values;

  // The key parameter `name` ("" when absent) and the value `name` (NaN).
  std::string param(const std::string& name) const {
    for (const auto& [k, v] : params)
      if (k == name) return v;
    return "";
  }
  double value(const std::string& name) const {
    const auto it = values.find(name);
    return it == values.end() ? NAN : it->second;
  }
};

}  // namespace edp::report
