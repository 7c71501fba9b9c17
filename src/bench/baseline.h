// Idle baselines (DESIGN §3): what one is, in which state an item's is
// taken, when a new one is due, and their total over the total rails. The
// runner takes them through baseline_for; `plan` replays the same rules to
// count them.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "bench/config.h"
#include "bench/plan.h"
#include "power/energy_meter.h"

namespace edp::bench {

struct Sweep;

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

// The baseline for `state`, measured now when there is none yet or
// power.baseline_every items used the last one; nullptr when no baseline is
// taken (no sensor, baseline_s: 0).
const Baseline* baseline_for(Sweep& s, const std::string& state, const std::string& label);

// The idle power of the total rails: the sum of their idle watts; NaN when
// one has none (its reads failed) or nothing was measured. `run` and
// `measure` both take their baseline's total from here.
double idle_total_w(const std::vector<std::string>& total_rails,
                    const std::map<std::string, double>& idle_w);

}  // namespace edp::bench
