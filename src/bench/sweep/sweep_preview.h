// What a sweep will do, before it does it (DESIGN §6 `plan`): the sensors
// and total rails `run` would use, every plan item in order with its device,
// threads and expected window against the sensor's update interval, which
// runs will be low confidence, and an estimate of the whole sweep's
// duration. `edpbench plan` prints it; `run` prints the same at its start.
//
// Each item's window, blocks, low-confidence flag and runs come from a dry
// run of the protocol (bench/protocol/protocol.h forecast_part: the rules the runs
// ask, fed with estimated step times). Durations come from each item's
// flop_estimate and a per-device rate measured by a short calibration (a few steps of the device's
// smallest item, with the protocol's own pieces: make_backend_for, Part::make, step, synchronize).
// The rate of the smallest size is the lowest a device reaches, so the estimate errs long. Without
// calibration durations are unknown.
#pragma once

#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "bench/config/config.h"
#include "bench/sweep/sweep.h"

namespace edp::bench {

struct PreviewOptions {
  // Time a few steps of each device's smallest item (cpu and gpu backends
  // are started, a gpu's context released again afterwards).
  bool calibrate = true;
  int calibration_steps = 3;  // timed, after one untimed step
  // When no total rail states its update interval and one is not a counter,
  // watch the sensor for this long to measure it (0: do not, say unknown).
  double interval_probe_s = 2.0;
  // Items already done (run --resume): listed as done, left out of the
  // estimate. Empty function: none.
  std::function<bool(const std::string& key)> done;
  // The estimated time of one step of all an item's parts, instead of the
  // calibration's (a caller that knows them; the tests). Empty: calibrate.
  std::function<double(const PlanItem& item)> step_s;
};

struct RailTiming {
  std::string rail, sensor, timing;  // timing: counter | instantaneous | averaging
  double averaging_s = 0;            // stated averaging period; 0 = not stated
};

// A device's measured speed on the smallest item of one workload (the
// item's first part: "tensors", "autograd", ...); one per device and
// workload, since per-step overheads differ between the programs.
struct DeviceRate {
  std::string device;    // DeviceSpec::label
  std::string workload;  // first part's name ("" when the device has no item)
  std::string item;      // the item's label it was measured on ("" if none)
  double gflops = NAN;   // NaN: not calibrated / skipped / failed
  double step_s = NAN;   // measured time of one step of that item
  double setup_s = NAN;  // Part::make + synchronize, as measured
  int threads = -1;      // as resolved on this machine (-1: unknown)
  std::string cpus;      // "0-3": cpu workers, or the gpu launching thread
  std::string skipped;   // why the device is skipped ("" = it runs)
  // Why its backend cannot start ("cannot pin CPU worker 0 to CPU 3"): a
  // problem, not a skip; its items would fail ("" = it starts or was not tried).
  std::string cannot_start;
  std::string note;  // a calibration that failed, and why
};

struct PreviewRow {
  std::string study, key, label, device;
  int threads = -1;
  std::string operating_point;  // empty until operating points exist
  int steps = 0, runs = 0, warmup = 0;
  size_t parts = 1;
  double step_s = NAN;  // estimated time of one step (all parts), NaN unknown
  double setup_s = 0;   // estimated set-up per part (the calibration's)
  // The dry run of the item's protocol (forecast_part) with that step time:
  // blocks per run (0: unknown), the expected window of one run and how it
  // was sized: "steps" (steps x step time), "min_run_s" or "auto" (20
  // update intervals), whichever is longer; and the runs its stopping
  // criterion would take.
  int blocks = 0;
  double window_s = NAN;
  std::string window_rule = "steps";
  double updates = NAN;        // window_s / update interval
  std::string low_confidence;  // "yes" | "no" | "?" (unknown) | "-" (no energy)
  double item_s = NAN;         // estimated duration of the whole item
  std::string status;          // "" | "skipped: why" | "cannot start: why" | "done"
};

struct SweepPreview {
  std::string config_path;
  // Platform.
  std::string board, soc, l4t, nvpmodel;
  int online_cpus = 0;
  // Sensors (what `run` would find).
  std::vector<std::string> discovery_log;
  std::string source;
  bool measures_energy = false;
  std::vector<std::string> total_rails;
  std::string total_rails_why;
  std::vector<RailTiming> rail_timing;  // of the total rails
  bool averaging = false;               // a total rail averages (lag tail)
  double update_interval_s = NAN;       // NaN: unknown
  // What the run's sampler will know of the interval, which is what it
  // judges runs by: "known" (seen changing, or stated and not yet disproved),
  // "static" (watched, and the total rails did not change: a constant trace;
  // runs are then not judged by length, an averaging rail's are all low
  // confidence, and each idle baseline first waits 5 s for an interval),
  // "unknown" (not watched, not stated).
  std::string interval_state = "unknown";
  std::string update_interval_how;  // "stated by the sensor", "measured over 2.0 s", ...
  bool interval_stated = false;     // a sensor states it (update_interval_s is that, or observed)
  // Plan.
  std::vector<DeviceRate> devices;  // in the config's order, then by workload
  std::vector<PreviewRow> rows;
  // Estimate of the sweep (seconds; NaN where unknown).
  int items = 0, items_skipped = 0, items_done = 0, total_runs = 0, low_confidence_runs = 0;
  int items_failing = 0;  // on a device whose backend cannot start
  double windows_s = NAN, warmup_s = NAN, setup_s = NAN, baselines_s = 0, lag_tail_s = 0,
         cooldown_s = 0, total_s = NAN;
  int baselines = 0;
  std::vector<std::string> notes;  // what the estimate leaves out
  // Usage errors found (every one); non-empty means `plan` exits 2.
  std::vector<std::string> problems;
};

// The summary of a sweep of `cfg` measured by `session`. Collects, without
// throwing, every machine-level problem a device entry or a study's check()
// reveals; may start the session's sampler (interval probe) and backends
// (calibration).
SweepPreview preview_sweep(const Config& cfg, Session& session, const PreviewOptions& options = {});

// Everything `plan` does: probes the platform, opens the sensors and
// selects the total rails as `run` does, collecting their usage errors
// into problems instead of stopping at the first, then preview_sweep.
// A Prober on a missing --sysfs-root still throws UsageError.
SweepPreview preview_config(const Config& cfg, const std::string& sysfs_root,
                            const PreviewOptions& options = {});

// Aligned text for a person, at most 120 columns wide; JSON with the same
// content. The sensors' discovery log is in the text when `verbose`, or
// when no power source was found (then it says why).
std::string format_preview(const SweepPreview& summary, bool verbose = false);
std::string preview_json(const SweepPreview& summary);

}  // namespace edp::bench
