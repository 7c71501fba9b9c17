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

// The rails whose sum is "energy", chosen as `run` chooses them (DESIGN
// §4.1): auto on the board the platform probe under `sysfs_root` names, or
// the explicit list, checked (UsageError for an unknown or nested rail).
// *why says how they were chosen. Empty when the meter measures nothing.
std::vector<std::string> choose_measure_total_rails(const power::EnergyMeter& meter,
                                                    const std::string& sysfs_root,
                                                    const std::vector<std::string>& requested,
                                                    std::string* why);

// Runs the whole protocol and returns the exit code: 0, the command's own
// status when a run failed, 128 + signal when interrupted (after writing the
// runs done), 2 when the command cannot be started. Throws UsageError for
// bad options.
int run_measure(const MeasureOptions& options);

}  // namespace edp::bench
