// A measuring session (DESIGN §3): the one object every client that measures
// builds (`run`, `ops`, `plan`, `measure`, the monitor API; later the
// exporter and the deploy study). It owns the energy meter (discovery, the
// sampler thread), the platform probe, the total rails and why they were
// chosen, settling, the idle baselines and their cadence, cool-down, and it
// opens the judged windows (bench/engine/window.h). What it knows about itself is
// one struct, SessionFacts: the session part of context.json.
//
// A session knows nothing of plan items, studies, progress or files: the
// sweep (bench/sweep/sweep.h) and the other clients bring those. Its methods may be
// called from several threads (the monitor's windows and measure_idle);
// baselines are guarded, the meter is thread-safe.
#pragma once

#include <cmath>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "bench/engine/session_options.h"
#include "bench/engine/window.h"
#include "common/run_context.h"
#include "platform/platform.h"
#include "power/energy_meter.h"

namespace edp::bench {

// One idle baseline (DESIGN §3), in a named state: "host" (no GPU context),
// "gpu:N" (device N's context alive), with "@point" at an operating point;
// any name a client gives (the deploy study's device states).
struct Baseline {
  std::string state;
  power::EnergyMeter::IdleBaseline idle;
  double total_w = NAN;  // over the total rails; NaN when one has none
  std::string before;    // what it was taken before (an item's label)
};

// When the idle baselines are taken (DESIGN §3): one per state before its
// first item, and again once power.baseline_every items used the last one.
// The session keeps one; `plan` replays the same rules over the plan to
// count them, so the two cannot drift apart.
class BaselineCadence {
 public:
  explicit BaselineCadence(int every = 0) : every_(every) {}
  // Whether `state` needs a (new) baseline before its next item.
  bool due(const std::string& state) const {
    const auto it = since_.find(state);
    return it == since_.end() || (every_ > 0 && it->second >= every_);
  }
  void taken(const std::string& state) { since_[state] = 0; }
  void used(const std::string& state) { ++since_[state]; }

 private:
  int every_;
  std::map<std::string, int> since_;  // state -> items since its baseline
};

// The idle power of the total rails: the sum of their idle watts; NaN when
// one has none (its reads failed), when nothing was measured, or when there
// is no total rail.
double idle_total_w(const std::vector<std::string>& total_rails,
                    const std::map<std::string, double>& idle_w);

// What a session says about itself (DESIGN §5: context.json's `power`).
struct SessionFacts {
  std::string source;                              // "jetson", "rapl+nvml", "trace", "none"
  std::vector<std::string> rails;                  // every rail
  std::vector<std::string> total_rails;            // the rails whose sum is "energy"
  std::string total_rails_why;                     // how they were chosen
  std::map<std::string, std::string> rail_timing;  // rail -> "averaging over 0.4 s (stated)"
  double update_interval_s = 0;                    // observed on the total rails; 0 unknown
  double rate_hz = 0;
  double baseline_s = 0;
  std::vector<Baseline> baselines;  // every one taken, in order
  // The baseline context.json names first: the current host one, else the
  // first taken; none before any.
  std::optional<Baseline> reported_baseline;
  std::vector<std::string> discovery_log;
  power::EnergyMeter::Overhead sampler{};

  // As context.json's `power` section (common/run_context.h).
  PowerContext power_context() const;
};

class Session {
 public:
  // Problems found while opening (an unknown source, a missing trace, an
  // unknown or nested total rail), each with the config key it concerns, so
  // that `run` and `plan` can report every one with the config's place.
  struct Problem {
    std::string key;  // "power.source", "power.trace.file", "power.total_rails"
    std::string message;
  };

  // Discovers the sensors (an empty meter when the source cannot be
  // opened), probes the platform, chooses the total rails. Collects the
  // problems above instead of throwing; throws UsageError for options the
  // key table refuses (named by `name`) and for a --sysfs-root that does
  // not exist.
  explicit Session(SessionOptions options, const OptionNamer& name = {});
  // Over a platform and a meter the caller built (tests, benchmarks).
  Session(SessionOptions options, platform::Prober prober, power::EnergyMeter meter);
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  const std::vector<Problem>& problems() const { return problems_; }
  // Throws UsageError with every problem's message, one per line.
  void throw_problems() const;

  const SessionOptions& options() const { return options_; }
  power::EnergyMeter& meter() { return meter_; }
  const power::EnergyMeter& meter() const { return meter_; }
  const platform::Prober& prober() const { return prober_; }
  const platform::Platform& platform() const { return prober_.platform(); }
  bool measures_energy() const { return meter_.measures_energy(); }
  const std::vector<std::string>& total_rails() const { return total_rails_; }
  const std::string& total_rails_why() const { return total_rails_why_; }

  // Stop requests: `stop_signal` is polled during every wait (settling,
  // baselines, cool-down); a non-zero signal number ends the wait with
  // Interrupted{signal} (engine/interrupted.h; the CLI's signal handling is
  // bench/engine/signals.h). Default: never.
  void stop_on(std::function<int()> stop_signal);
  // Where the session's status lines go ("edpbench: measuring idle power
  // ..."); nowhere by default.
  void log_to(std::function<void(const std::string&)> log);

  // Starts the sampler thread. Call it before pinning the calling thread:
  // the sampler inherits its CPU mask unless power.sampler_cpu pins it.
  void start();
  // Waits, at most power.settle_s, until every averaging total rail's update
  // interval is known, so that the first window is lag-corrected; whether it
  // is. Starts the sampler.
  bool settle();
  // The total rails' update interval as the window rules read it: observed
  // by the sampler, else stated; 0 while unknown.
  double update_interval_s() const;
  // As the sensors state it: the largest of their own update intervals and
  // the total rails' stated averaging periods; 0 when none states one.
  double stated_update_interval_s() const;

  // The baseline for `state` by the cadence: measured now (for
  // power.baseline_s) when there is none yet or power.baseline_every items
  // used the last one, else the last one; none when no baseline is taken
  // (no sensor, baseline_s: 0).
  std::optional<Baseline> baseline_for(const std::string& state, const std::string& before);
  // One more item used `state`'s baseline (the cadence counts them).
  void baseline_used(const std::string& state);
  // A baseline of `seconds` in `state`, measured now whatever the cadence
  // (the monitor's measure_idle; a deploy study's device states). It
  // becomes `state`'s current one.
  Baseline measure_baseline(const std::string& state, const std::string& before, double seconds);
  // `state`'s current baseline, if any.
  std::optional<Baseline> current_baseline(const std::string& state) const;
  std::vector<Baseline> baselines() const;

  // An idle gap of `seconds` that a stop request ends (cool-down; the gaps
  // between a deploy study's bursts).
  void pause(double seconds);
  // cooldown_s, then until the hottest zone is below max_start_temp_c (at
  // most 10 minutes); a note when it gave up waiting.
  std::string cool_down();

  // Opens a judged window `name` on the meter (bench/engine/window.h).
  std::unique_ptr<RunWindow> open_window(const std::string& name, bool probe_activity);
  // How this session's windows are judged: its total rails and sampler
  // rate, and `baseline_total_w` for dynamic energy. The caller sets the
  // threads and CPUs of the work.
  WindowJudging judging(double baseline_total_w) const;
  // What the note of a window shorter than kMinUpdatesPerWindow updates
  // advises, in the client's terms ("lengthen the command's work"); the
  // default names power.min_run_s.
  void advise_short_windows(std::string advice) { short_window_advice_ = std::move(advice); }

  SessionFacts facts() const;
  // The session's part of context.json: the version, the board (the
  // platform probe's document), the build and facts().power_context(); the client
  // adds its times and its own sections (common/run_context.h).
  RunContext context() const;
  // Every rail's running energy counter and latest power, the total rails'
  // sums, the frozen flags and the sampler's counts, now (power::Counters):
  // what the exporter serves between windows. Starts nothing.
  power::Counters counters() const { return meter_.counters(); }

 private:
  void choose_total_rails();
  void check_stop() const;
  std::function<bool()> keep_going() const;
  void log(const std::string& line) const;

  SessionOptions options_;
  std::vector<Problem> problems_;  // before meter_: opening it adds to them
  platform::Prober prober_;
  power::EnergyMeter meter_;
  std::vector<std::string> total_rails_;
  std::string total_rails_why_;
  std::function<int()> stop_signal_;
  std::function<void(const std::string&)> log_;
  std::string short_window_advice_;

  mutable std::mutex mutex_;  // guards what follows
  std::vector<Baseline> baselines_;
  std::map<std::string, size_t> current_;  // state -> index into baselines_
  BaselineCadence cadence_;
};

}  // namespace edp::bench
