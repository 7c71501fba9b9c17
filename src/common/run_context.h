// context.json (DESIGN §5) as one typed struct with one writer and one reader:
// `run` fills it from the sweep and its session's facts, the monitor from its
// session, `measure --json` embeds it; `report` and `compare` read it back
// through run_context_from_json. Its keys are common/context_schema.h's.
//
// The board is the platform probe's own document (platform::to_json, also
// `edpbench probe --json`) and is kept as written; what readers need of it
// (model, L4T, nvpmodel mode, clocks) they ask the accessors below, which
// also understand the looser layouts older tools wrote.
#pragma once

#include <cmath>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace edp {

// One idle baseline (power.baselines).
struct BaselineContext {
  std::string state;   // "host", "gpu:0"
  std::string before;  // "the sweep", "tensors/small/gpu"
  double start_unix_s = NAN, settle_s = NAN, duration_s = NAN, update_interval_s = NAN;
  double total_w = NAN;                   // over the total rails
  std::map<std::string, double> rails_w;  // every rail
};

// The sampler thread's cost over the whole session (power.sampler).
struct SamplerContext {
  double cpu_s = NAN, wall_s = NAN;
  uint64_t ticks = 0, missed_deadlines = 0, read_failures = 0;
};

// samples.csv's rate and cap, and where the cap cut it (power.timeline,
// `run --timeline`).
struct TimelineContext {
  std::string file;  // "samples.csv"
  double hz = 0;
  uint64_t window_points = 0;
  int64_t max_rows = 0, rows = 0;
  std::string full_at;  // the first window the cap left out; "" while none
};

// The session's facts (bench/engine/session.h SessionFacts), as written.
struct PowerContext {
  std::string source;                    // "jetson", "rapl+nvml", "trace", "none"
  std::vector<std::string> rails;        // every rail (written "a,b")
  std::vector<std::string> total_rails;  // whose sum is energy (written "A+B")
  std::string total_rails_why;
  std::map<std::string, std::string> rail_timing;  // rail -> "averaging over 0.4 s (stated)"
  double update_interval_s = 0;                    // observed on the total rails; 0 unknown
  double rate_hz = 0;
  std::optional<double> baseline_s;  // the configured length (`run`)
  // The baseline context.json names first, per rail and in total.
  std::optional<std::map<std::string, double>> baseline_w;
  std::optional<double> baseline_total_w;
  std::optional<std::vector<BaselineContext>> baselines;  // every one taken (`run`)
  std::vector<std::string> discovery_log;                 // written as one text
  std::optional<SamplerContext> sampler;
  std::optional<TimelineContext> timeline;  // `run --timeline`
};

struct BuildContext {
  std::string compiler;
  bool cuda = false, cudnn = false, openblas = false, blis = false;
  std::string cuda_architectures;
};

// The monitor's idle baseline (Monitor::measure_idle).
struct IdleContext {
  double total_w = NAN;
  std::map<std::string, double> rails_w;
  double duration_s = NAN, settle_s = NAN, start_unix_s = NAN;
};

// What the monitor API wrote into the directory.
struct MonitorContext {
  std::vector<std::string> configurations;     // the keys of its results.csv rows
  std::map<std::string, std::string> writers;  // key -> the monitor that wrote its rows
  std::optional<IdleContext> idle_baseline;    // the last one taken, kept across writes
  // The monitor's own session (source, total rails and why, rate, update
  // interval, discovery) when the top-level `power` is another writer's: a
  // monitor writing into a `run` directory. Absent when `power` is its own.
  std::optional<PowerContext> power;
};

// Per device, name -> value (the backends' facts, the GPUs' CUDA properties).
using DeviceFacts = std::vector<std::pair<std::string, std::map<std::string, std::string>>>;

struct RunContext {
  std::string edpbench_version;
  // false: interrupted, continue with --resume (read as true when
  // context.json does not say)
  bool complete = false;
  std::string start_time, end_time;
  std::optional<std::string> config_file, config_yaml;  // `run`
  std::optional<std::string> board;                     // platform::to_json's document
  std::optional<BuildContext> build;
  PowerContext power;
  std::optional<DeviceFacts> backends, gpu;     // `run`
  std::optional<std::string> operating_points;  // what was applied and restored, a line each
  std::optional<MonitorContext> monitor;
  // Keys this version does not know (a newer edpbench's), as JSON text,
  // kept so that a rewrite (the monitor's) loses nothing.
  std::vector<std::pair<std::string, std::string>> others;

  // The board's facts, from the probe's document or an older layout; "" or
  // NaN when absent.
  std::string board_model() const;
  std::string l4t_release() const;
  std::string nvpmodel_mode() const;
  std::vector<double> cpu_max_khz() const;
  double gpu_max_hz() const;
  double emc_hz() const;
};

// Now, as context.json's start_time and end_time ("2026-11-23T20:30:33Z").
std::string utc_now();

// context.json's text: the top level indented, nested values compact,
// numbers with 10 significant digits (common/json.h).
std::string to_context_json(const RunContext& c, int indent = 2);
// Throws std::runtime_error when `text` is not a JSON object or one of its
// objects has a key twice (as report::parse_json does). Anything else
// is read leniently: a missing or mistyped key is left at its default, and
// the layouts of older versions (total_rails as a list, board_model, l4t)
// are understood.
RunContext run_context_from_json(const std::string& text);

}  // namespace edp
