// Idle baselines (see baseline.h).
#include "bench/baseline.h"

#include <cmath>

#include "bench/signals.h"
#include "bench/sweep.h"

namespace edp::bench {

double idle_total_w(const std::vector<std::string>& total_rails,
                    const std::map<std::string, double>& idle_w) {
  if (idle_w.empty()) return NAN;
  double total = 0;
  for (const auto& rail : total_rails) {
    auto it = idle_w.find(rail);
    if (it == idle_w.end()) return NAN;
    total += it->second;
  }
  return total;
}

std::string baseline_state(const PlanItem& item) {
  const DeviceSpec& dev = *item.device;
  return (dev.kind == "gpu" ? "gpu:" + std::to_string(dev.index) : "host") +
         (item.point_name.empty() ? "" : "@" + item.point_name);
}

bool takes_sweep_baseline(const Config& cfg) { return cfg.operating_points.empty(); }

const Baseline* baseline_for(Sweep& s, const std::string& state, const std::string& label) {
  if (!s.meter.measures_energy() || s.cfg.power.baseline_s <= 0) return nullptr;
  if (!s.baseline_cadence.due(state)) return &s.baselines[s.current_baseline.at(state)];
  if (s.progress)
    s.progress->line("edpbench: measuring idle power (" + state + ") for " +
                     fmt("%.1f", s.cfg.power.baseline_s) + " s after the sensor settles");
  Baseline b;
  b.state = state;
  b.before = label;
  b.idle = s.meter.measure_idle(s.cfg.power.baseline_s, [] { return stop_signal() == 0; });
  throw_if_stop_requested();
  for (const auto& rail : s.total_rails)
    if (!b.idle.power_w.count(rail) && s.progress)
      s.progress->line("edpbench: warning: no idle baseline for " + rail +
                       " (its reads failed); dynamic energy stays empty");
  b.total_w = idle_total_w(s.total_rails, b.idle.power_w);
  if (s.progress && !std::isnan(b.total_w))
    s.progress->line("edpbench: idle power (" + state + "): " + fmt("%.3f W", b.total_w) +
                     " after settling " + fmt("%.1f s", b.idle.settle_s));
  s.baselines.push_back(std::move(b));
  s.current_baseline[state] = s.baselines.size() - 1;
  s.baseline_cadence.taken(state);
  return &s.baselines.back();
}

}  // namespace edp::bench
