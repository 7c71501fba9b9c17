// `edpbench measure -- COMMAND [ARGS...]` (DESIGN §6): time, energy and EDP
// of any program over repeated runs, the way `perf stat -r N` gives its time.
// Each run forks the command into its own process group with stdin, stdout
// and stderr passed through, and brackets it with one energy window.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "power/energy_meter.h"
#include "power/options.h"

namespace edp::bench {

struct MeasureOptions {
  std::vector<std::string> command;  // argv of the program, searched in PATH
  int runs = 1;
  int warmup = 0;  // runs before the measured ones, not recorded
  power::PowerOptions power;
  std::vector<std::string> total_rails;  // empty = auto (choose_measure_total_rails)
  double baseline_s = 0;                 // 0 = no idle baseline, dynamic energy stays empty
  double cooldown_s = 0;                 // pause before every measured run
  std::string csv_path, json_path;       // "" = not written
  std::string label;                     // "" = the command line
};

// One measured run. Energies are NaN when not measured.
struct MeasureRun {
  int run = 0;
  int exit_status = 0;   // the command's exit code, or 128 + signal
  bool metered = false;  // a power source was read (else the evidence columns stay empty)
  double time_s = 0;
  double energy_j, dynamic_energy_j, edp_js, power_w_mean;
  std::map<std::string, double> rail_energy_j;  // every rail of the source
  size_t samples = 0;
  double start_unix_s = 0, end_unix_s = 0, start_monotonic_s = 0, end_monotonic_s = 0;
  // Over the total rails: the largest update interval, the fewest distinct
  // values, the largest gap, the largest lag correction.
  double update_interval_s = 0;
  size_t distinct_values = 0;
  double largest_gap_s = 0;
  double lag_correction_s = 0;
  size_t read_failures = 0, missed_deadlines = 0, anomalies = 0;
  bool low_confidence = false, frozen = false;
  std::string note;  // why the energy is missing, the sensor's anomaly text
};

// The rails whose sum is "energy": the explicit list (checked against the
// source's rails, UsageError for an unknown one), else every rail.
std::vector<std::string> choose_measure_total_rails(const power::EnergyMeter& meter,
                                                    const std::vector<std::string>& requested);

// Runs the whole protocol and returns the exit code: 0, the command's own
// status when a run failed, 128 + signal when interrupted (after writing the
// runs done), 2 when the command cannot be started. Throws UsageError for
// bad options.
int run_measure(const MeasureOptions& options);

// The --csv file for these runs (header and one row per run).
std::string measure_csv(const std::string& label, const std::vector<MeasureRun>& runs);

}  // namespace edp::bench
