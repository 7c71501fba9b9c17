// What one energy window says about one run (DESIGN §3, §5): the energy of
// the total rails, and the evidence that it can be trusted. A pure function
// of the Measurement, so each rule is tested without a sensor.
#pragma once

#include <string>
#include <vector>

#include "platform/cpu_activity.h"
#include "power/measurement.h"
#include "report/records.h"

namespace edp::bench {

struct WindowContext {
  std::vector<std::string> total_rails;
  int blocks = 1;                 // iteration blocks the window repeated
  double window_s = 0;            // the run's wall time, all blocks
  double baseline_total_w = NAN;  // idle power of the total rails, NaN if none
  // The sensors' stated update interval (0: none): judges the window when
  // the sampler has not observed one (WindowJudging).
  double stated_update_interval_s = 0;
  std::string short_window_advice = "raise power.min_run_s or use auto";
};

// Fills r's energy, power, EDP, dynamic energy, per-rail energy and evidence
// columns (per `blocks` where they are per iteration block), and the flags:
// low_confidence, by the one confidence rule (bench/engine/rules.h: window
// < kMinUpdatesPerWindow update intervals of the total rails, an averaging
// total rail whose interval is still unknown or contradicted, a frozen total
// rail, or a sensor anomaly), every reason in r.note, and frozen. Returns why the energy could not
// be trusted ("" when it can): a failed read or a frozen value on a total rail, or a window the
// sampler did not close. The energy columns stay NaN then.
std::string judge_window(const power::Measurement& m, const WindowContext& w, report::RunRecord& r);

// A run is `disturbed` when its threads waited for a CPU more than this share
// of wall time x threads (an idle machine: under 1%; one busy neighbour on a
// 2-CPU board with 2 workload threads: about 50%) ...
inline constexpr double kMaxPreemptedShare = 0.05;
// ... or when the sampler missed more than this share of its deadlines (and
// at least kMinMissedDeadlines of them: one late tick in a short window is
// not a disturbance), since its readings then lag the power it integrates.
inline constexpr double kMaxMissedDeadlineShare = 0.01;
inline constexpr uint64_t kMinMissedDeadlines = 3;
// How long `plan` and `run` watch the machine before starting, to warn when
// it is already busy (platform/machine_load.h).
inline constexpr double kLoadSampleS = 0.5;

// Fills r's interference columns and `disturbed` (appending why to r.note).
// `rate_hz` is the sampler's rate and `span_s` the window's span, which give
// the deadlines expected; rate_hz <= 0 when nothing is sampled. `threads`
// is the workload's thread count and `cpus` the number of CPUs they are
// pinned to (0: not pinned, unknown): threads beyond the CPUs wait for one
// another (t CPU-bound threads on c CPUs: 1 - c/t of their time), which is
// the workload's own doing, not a neighbour's, and is allowed for.
void judge_interference(const platform::Interference& i, double rate_hz, double span_s,
                        report::RunRecord& r, int threads = 1, int cpus = 0);

}  // namespace edp::bench
