// What `measure -- CMD` reports (DESIGN §6): its runs with the command's exit
// status, written as --csv (runs.csv's own columns, then label and
// exit_status), --json (the runs and their summary, and the context as
// context.json has it) and the perf-stat-like summary on stderr.
#pragma once

#include <cmath>
#include <string>
#include <vector>

#include "common/run_context.h"
#include "report/records.h"

namespace edp::bench {

// One measured run of the command: the engine's record of its window and
// how the command ended.
struct CommandRun {
  report::RunRecord record;
  int exit_status = 0;  // the command's exit code, or 128 + signal
};

struct MeasureReport {
  std::string label, command, source;
  std::vector<std::string> rails, total_rails;
  double baseline_w = NAN;
  int warmup = 0;
  report::PartRecord part;  // the item's part (study measure, workload = label, device host)
  std::vector<CommandRun> runs;
  bool interrupted = false;
  // context.json's struct (common/run_context.h): the session's part and
  // the times; --json carries it as "context".
  RunContext context;
  bool metered = false;  // a power source was found (not `none`)
};

std::string measure_json(const MeasureReport& rep);
std::string measure_csv(const MeasureReport& rep);
// "edpbench: run 2/5: 1.021 s, 7.66 J, 7.50 W  [ETA 0m03s]": the line
// printed as each run ends (eta_s < 0: no ETA).
std::string measure_run_line(const MeasureReport& rep, const CommandRun& run, int planned,
                             double eta_s);
// The labelled summary: per quantity the mean ± 95% CI, std and range,
// each with its unit and rounded to what the sensor and the spread resolve;
// a CI of a quantity that cannot be negative that reaches below 0 is
// marked and given clipped.
std::string measure_summary(const MeasureReport& rep);
// What the runs' flags say, with the reasons from their notes.
std::vector<std::string> measure_warnings(const MeasureReport& rep);

}  // namespace edp::bench
