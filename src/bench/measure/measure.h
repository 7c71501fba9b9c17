// `edpbench measure -- COMMAND [ARGS...]` (DESIGN §3, §6): time, energy and
// EDP of any program over repeated runs, the way `perf stat -r N` gives its
// time. A client of the one measurement engine: a session
// (bench/engine/session.h) and one plan item whose workload's step is fork, exec and wait
// (bench/measure/command_workload.h), measured by bench::run_protocol like every
// item of `run`, so a run's time, energy and evidence mean what they mean
// there.
#pragma once

#include <signal.h>

#include <memory>
#include <string>
#include <vector>

#include "bench/config/config.h"
#include "bench/engine/session_options.h"
#include "bench/measure/command_workload.h"
#include "bench/protocol/plan_item.h"

namespace edp::bench {

// measure's session: the config's power defaults, but no idle baseline
// unless --baseline-s asks for one (then dynamic energy stays empty).
SessionOptions measure_session_defaults();

struct MeasureOptions {
  std::vector<std::string> command;  // argv of the program, searched in PATH
  int runs = 1;
  int warmup = 0;  // runs before the measured ones, not recorded
  // Power source, trace, --sysfs-root, total rails (empty = auto, chosen as
  // `run` chooses them), rate, idle baseline, cool-down before every run.
  SessionOptions session = measure_session_defaults();
  std::string csv_path, json_path;  // "" = not written
  // --timeline FILE: every run's power over time as samples.csv (DESIGN §5;
  // power.timeline_hz, power.timeline_max_rows of `session`); "" = none.
  std::string timeline_path;
  std::string label;     // "" = the command line
  bool verbose = false;  // the discovery log (shown anyway without a sensor)
};

// How measure's flags name the session's options ("--rate-hz").
std::string measure_option_name(const std::string& path);

// --label against label_problem (the numbers are the session's: its key
// table checks them): UsageError naming the option.
void check_measure_values(const MeasureOptions& opt);

// The device a command runs on: "host", the process itself (no compute
// backend: the work runs in the command).
const DeviceSpec& host_device();

// measure's plan item (study `measure`, key `measure:label=LABEL`): one
// part, the command workload (bench/measure/command_workload.h), `--warmup` warm-up
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
