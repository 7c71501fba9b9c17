// What a sweep shares between its plan items (DESIGN §3, §9): the config,
// the platform probe, the energy meter and its total rails, the idle
// baselines in each state, the backends' facts, progress. Every study's
// items are measured against one Sweep.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "bench/config.h"
#include "bench/gemm_choice.h"
#include "bench/plan.h"
#include "bench/progress.h"
#include "common/text.h"
#include "platform/platform.h"
#include "power/energy_meter.h"

namespace edp::bench {

// One idle baseline (DESIGN §3), in the state of the items that use it:
// "host" (no GPU context) or "gpu:N" (device N's context alive).
struct Baseline {
  std::string state;
  power::EnergyMeter::IdleBaseline idle;
  double total_w = NAN;  // over the total rails; NaN when one has none
  std::string before;    // the item it was taken before
};

// When the idle baselines are taken (DESIGN §3): one per state before its
// first item, and again once power.baseline_every items used the last one.
// The runner keeps one in its Sweep; `plan` replays the same rules over the
// plan to count them, so the two cannot drift apart.
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

// The state an item's baseline is taken in: a GPU item's with its CUDA
// context alive ("gpu:N"), a host item's without one ("host"), at the item's
// operating point ("@point") when the sweep has several.
std::string baseline_state(const PlanItem& item);

// Whether the runner takes a host baseline before the first item: only
// without operating points (with them, the first baseline is taken at the
// first point, in that point's state).
bool takes_sweep_baseline(const Config& cfg);

struct Sweep {
  Sweep(const Config& c, platform::Prober p, power::EnergyMeter m)
      : cfg(c), prober(std::move(p)), meter(std::move(m)) {}

  const Config& cfg;
  platform::Prober prober;
  power::EnergyMeter meter;
  std::vector<std::string> total_rails;            // rails that make "energy"
  std::string total_rails_why;                     // how they were chosen
  std::vector<Baseline> baselines;                 // every one taken, in order
  std::map<std::string, size_t> current_baseline;  // state -> index into baselines
  BaselineCadence baseline_cadence{cfg.power.baseline_every};
  std::map<std::string, std::map<std::string, std::string>> backends;  // device -> describe()
  GemmChooser gemm_chooser;
  std::vector<std::string> point_log;  // operating points applied and restored  // one gemm: auto
                                       // decision per (shape, threads, cpus)
  std::unique_ptr<Progress> progress;
  std::string start_time;
  int measured_ok = 0;
};

power::PowerOptions power_options(const PowerConfig& p, const std::string& sysfs_root);

// The rails whose sum is "energy" (DESIGN §4.1), checked against the source
// before anything is measured: an unknown or nested explicit list is a usage
// error. The sampler judges update interval, freezing and lag on them.
void select_total_rails(Sweep& s);

// Usage errors a device entry can only reveal on this machine.
void validate_devices(const Config& cfg, const platform::Platform& platform);

// The baseline for `state`, measured now when there is none yet or
// power.baseline_every items used the last one; nullptr when no baseline is
// taken (no sensor, baseline_s: 0).
const Baseline* baseline_for(Sweep& s, const std::string& state, const std::string& label);

// The idle power of the total rails: the sum of their idle watts; NaN when
// one has none (its reads failed) or nothing was measured. `run` and
// `measure` both take their baseline's total from here.
double idle_total_w(const std::vector<std::string>& total_rails,
                    const std::map<std::string, double>& idle_w);

// power.min_run_s, or with `auto` 20 update intervals of the total rails.
double min_window_s(const Sweep& s, const ProtocolSettings& settings);

// Waits for cooldown_s and for the hottest zone to fall below
// max_start_temp_c (at most 10 minutes); returns a note when it gave up.
std::string cool_down(Sweep& s);

// context.json (DESIGN §5).
std::string context_json(const Sweep& s, bool complete);

// Mean current clock of `cpus` (all CPUs when empty), MHz; NaN if unknown.
double cpu_mhz(const platform::Platform& p, const platform::Snapshot& s,
               const std::vector<int>& cpus);
double gpu_mhz(const platform::Snapshot& s);

std::string utc_now();
std::string join_rails(const std::vector<std::string>& rails);

}  // namespace edp::bench
