// `edpbench measure -- COMMAND [ARGS...]` (DESIGN §3, §6): time, energy and
// EDP of any program over repeated runs, the way `perf stat -r N` gives its
// time. A client of the one measurement engine: a session (bench/sweep.h)
// and one plan item whose workload's step is fork, exec and wait
// (bench/command_workload.h), measured by bench::measure_item like every
// item of `run`, so a run's time, energy and evidence mean what they mean
// there.
#pragma once

#include <signal.h>

#include <memory>
#include <string>
#include <vector>

#include "bench/command_workload.h"
#include "bench/config.h"
#include "bench/plan.h"
#include "power/options.h"

namespace edp::bench {

struct MeasureOptions {
  std::vector<std::string> command;  // argv of the program, searched in PATH
  int runs = 1;
  int warmup = 0;  // runs before the measured ones, not recorded
  power::PowerOptions power;
  std::vector<std::string> total_rails;  // empty = auto, chosen as `run` chooses them
  double baseline_s = 0;                 // 0 = no idle baseline, dynamic energy stays empty
  double cooldown_s = 0;                 // pause before every measured run
  std::string csv_path, json_path;       // "" = not written
  std::string label;                     // "" = the command line
};

// The options' values against the config's ranges (--rate-hz, --baseline-s,
// --cooldown-s) and --label against label_problem: UsageError naming the option.
void check_measure_values(const MeasureOptions& opt);

// measure's session config: the power options, total rails, idle baseline
// and cool-down of `opt` (the rest at their defaults: nothing else is read).
Config measure_config(const MeasureOptions& opt);

// The device a command runs on: "host", the process itself (no compute
// backend: the work runs in the command).
const DeviceSpec& host_device();

// measure's plan item (study `measure`, key `measure:label=LABEL`): one
// part, the command workload (bench/command_workload.h), `--warmup` warm-up
// steps, then `--runs` runs of exactly one step each (one block: a command
// is not repeated to fill min_run_s). Every command it runs reports its exit
// status into *outcome. Needs a SynchronousStops alive when measured.
PlanItem command_item(const MeasureOptions& opt, const sigset_t& child_mask, bool give_terminal,
                      std::shared_ptr<CommandOutcome> outcome);

// Runs the whole protocol and returns the exit code: 0, the command's own
// status when a run failed, 128 + signal when interrupted (after writing the
// runs done), 2 when the command cannot be started. Throws UsageError for
// bad options.
int run_measure(const MeasureOptions& options);

}  // namespace edp::bench
