// Plain records the runner fills and the writers only read (google/benchmark
// style). Units are in every name; NaN means "not measured".
#pragma once

#include <cmath>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace edp::report {

struct RailEnergy {
  std::string rail;
  double energy_j = NAN;
  double power_w_mean = NAN;
};

struct RunRecord {
  int run = 0;                    // 1-based
  double time_s = NAN;            // wall time of `iterations` steps, device synchronised
  double gpu_time_s = NAN;        // CUDA-event time of the same steps, if any
  double energy_j = NAN;          // on the total rails
  double dynamic_energy_j = NAN;  // energy - idle power x time
  double power_w_mean = NAN;
  double edp_js = NAN;   // energy_j * time_s
  uint64_t samples = 0;  // sampler ticks inside the window
  // The window's evidence (DESIGN §5): its edges on both clocks, so an
  // external meter's log can be aligned with it, and what the sensor did.
  double start_unix_s = NAN, end_unix_s = NAN;
  double start_monotonic_s = NAN, end_monotonic_s = NAN;
  double update_interval_s = NAN;  // of the total rails; NaN when unknown
  uint64_t distinct_values = 0;    // least over the total rails
  double largest_gap_s = NAN;      // largest over the total rails
  double lag_correction_s = 0;     // averaging period the lag correction shifted by (0 = none)
  uint64_t read_failures = 0, missed_deadlines = 0;
  // Of missed_deadlines, those a slow sensor read used up (the thread started
  // on time): not written to runs.csv, used to judge interference.
  uint64_t missed_in_slow_reads = 0;
  bool frozen = false;     // a total rail did not change over >= 3 expected updates
  uint64_t anomalies = 0;  // readings a sensor flagged (counter glitch, INA226 overflow)
  double final_loss = NAN;
  int blocks = 1;  // iteration blocks repeated to reach min_run_s
  // Window shorter than 10 sensor updates, update interval unknown for an
  // averaging total rail, a frozen total rail, or a sensor anomaly.
  bool low_confidence = false;
  bool throttled = false;                         // a clock fell below nominal during the run
  double start_temp_c = NAN, end_temp_c = NAN;    // hottest thermal zone
  double start_cpu_mhz = NAN, end_cpu_mhz = NAN;  // mean clock of the run's CPUs
  double start_gpu_mhz = NAN, end_gpu_mhz = NAN;
  // Interference (DESIGN §3): the CPU time the workload's threads got and
  // the time they waited for a CPU, each over wall time x threads, and the
  // share of the machine other processes used; NaN where procfs lacks them.
  double cpu_share = NAN, preempted_share = NAN, others_cpu_share = NAN;
  bool disturbed = false;  // preempted or the sampler late beyond the limits of run_evidence.h
  std::vector<RailEnergy> rails;
  std::string note;
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
