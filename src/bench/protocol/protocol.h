// The measurement protocol of DESIGN §3, for any plan item: check, set up,
// warm up, run trials in energy windows, summarise. There is no `if (study
// == ...)` here: what varies comes from the item's ProtocolSettings and its
// workloads.
#pragma once

#include <cmath>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "bench/config/config.h"
#include "bench/engine/session.h"
#include "bench/protocol/gemm_choice.h"
#include "bench/protocol/plan_item.h"
#include "bench/protocol/progress.h"
#include "bench/protocol/timeline_sink.h"
#include "report/records.h"

namespace edp::bench {

// What the protocol borrows from, and hands back to, whoever runs it (a
// sweep, `measure`, the overhead bench): everything it needs besides the
// session, none of it the session's. Only `cfg` is required.
struct ProtocolHooks {
  explicit ProtocolHooks(const Config& c) : cfg(c) {}

  // The backend settings make_backend_for reads (gpu:, cpu threads, GEMM).
  const Config& cfg;
  Progress* progress = nullptr;         // advanced per block, a line per run; null: silent
  TimelineSink* timeline = nullptr;     // where each window's samples go (power.timeline)
  GemmChooser* gemm_chooser = nullptr;  // required by an item with settings.gemm_auto
  // Called after each measured run, with its part's record so far: a client
  // that keeps what is complete through an interruption (`measure` writes
  // its files after every run).
  std::function<void(const report::PartRecord&, const report::RunRecord&)> on_run;
  // The study's passes (Study::before_backend and after_parts, bound by the
  // sweep): before the backend exists, and on the item's backend after the
  // timed parts with the item's CPUs, never inside a window.
  std::function<void(report::ItemRecord&)> before_backend;
  std::function<void(Backend&, const std::vector<int>& cpus, report::ItemRecord&)> after_parts;
  // Where the backend's facts go, by device label (describe(), with every
  // GEMM path `gemm: auto` chose for it); null: nowhere.
  std::map<std::string, std::map<std::string, std::string>>* backends = nullptr;
};

// Measures every part of `item` on one backend, in windows of `session`.
// A device this build or machine lacks gives `skipped` with the reason; an
// energy window that cannot be trusted makes its part `failed` (times kept).
// Throws Interrupted on SIGINT/SIGTERM, and what the backend throws (out of
// memory) for the runner to record as `failed`.
report::ItemRecord run_protocol(Session& session, const ProtocolHooks& hooks, const PlanItem& item);

// 2. of the protocol, warm-up: `steps` steps (none for 0), then a
// synchronise. The first step's result() is the initial one (the MLP's loss
// before training); a step that fails (Workload::step_failure) ends it, with
// why. `plan`'s calibration warms up with this too. Throws Interrupted.
struct WarmUp {
  int steps = 0;  // steps run, the failed one included
  double initial_result = NAN;
  std::string failure;  // "" when every step succeeded
};
WarmUp warm_up(Workload& wl, int steps, const std::function<void()>& after_step = {});

// A record of `item` with nothing measured (for failures the runner catches).
report::ItemRecord blank_record(const Session& session, const PlanItem& item);

// What `plan` knows of the sensor for a dry run.
struct SensorForecast {
  bool measures_energy = false;  // and there are total rails
  // The update interval the window policy reads (observed, else stated: what
  // Session::update_interval_s will say); 0 unknown.
  double window_interval_s = 0;
  // The update interval the run's sampler will judge windows by (the
  // measured one); 0 when it will not know one.
  double judged_interval_s = 0;
  // Watched, and the total rails did not change: the runs are not judged by
  // length (an averaging rail's are all low confidence, uncorrected).
  bool interval_seen_static = false;
  bool averaging = false;  // a total rail averages
};

// What the protocol would do with one part of `set` whose step takes
// step_s (NaN or 0: unknown) on that sensor, each run costing
// run_overhead_s besides its window (lag tail, cool-down): `plan`'s dry
// run. It asks the rules the runs ask (bench/engine/rules.h: the window
// policy, the confidence rule, the stopping criterion and caps), fed with
// estimated times instead of measured ones.
struct PartForecast {
  int blocks = 0;         // blocks per run; 0 when the step time is unknown
  double window_s = NAN;  // one run's window; with blocks 0 the minimum (a lower bound) or NaN
  std::string sized_by;   // "steps" | "min_run_s" | "auto"
  double updates = NAN;   // window_s / the judged update interval
  std::string low_confidence = "?";  // "yes" | "no" | "?" (unknown) | "-" (no energy)
  int runs = 0;
  std::string stop_reason;
};
PartForecast forecast_part(const ProtocolSettings& set, double step_s, const SensorForecast& sensor,
                           double run_overhead_s);

}  // namespace edp::bench
