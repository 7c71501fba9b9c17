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
};

std::string measure_json(const MeasureReport& rep);
std::string measure_csv(const MeasureReport& rep);
std::string measure_summary(const MeasureReport& rep, bool metered);
std::vector<std::string> measure_warnings(const MeasureReport& rep, bool metered);

}  // namespace edp::bench
