// Sweep-wide state and helpers (see sweep.h).
#include "bench/sweep.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <thread>

#include "bench/board_rails.h"
#include "bench/memory_check.h"
#include "bench/signals.h"
#include "common/errors.h"
#include "edpbench/config.h"
#include "power/total_rails.h"

namespace edp::bench {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

}  // namespace

std::string utc_now() {
  char buf[32];
  const std::time_t t = std::time(nullptr);
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return buf;
}

std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

power::PowerOptions power_options(const PowerConfig& p, const std::string& sysfs_root) {
  power::PowerOptions o;
  o.source = p.source;
  o.sysfs_root = sysfs_root;
  o.rate_hz = p.rate_hz;
  o.sampler_cpu = p.sampler_cpu;
  o.ina226 = p.ina226;
  o.trace_file = p.trace.file;
  o.trace_loop = p.trace.loop;
  return o;
}

static double idle_total(const Sweep& s, const std::map<std::string, double>& idle_w) {
  if (idle_w.empty()) return NAN;
  double total = 0;
  for (const auto& rail : s.total_rails) {
    auto it = idle_w.find(rail);
    if (it == idle_w.end()) return NAN;
    total += it->second;
  }
  return total;
}

const Baseline* baseline_for(Sweep& s, const std::string& state, const std::string& label) {
  if (!s.meter.measures_energy() || s.cfg.power.baseline_s <= 0) return nullptr;
  auto it = s.current_baseline.find(state);
  const int every = s.cfg.power.baseline_every;
  if (it != s.current_baseline.end() && (every == 0 || s.since_baseline[state] < every))
    return &s.baselines[it->second];
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
  b.total_w = idle_total(s, b.idle.power_w);
  if (s.progress && !std::isnan(b.total_w))
    s.progress->line("edpbench: idle power (" + state + "): " + fmt("%.3f W", b.total_w) +
                     " after settling " + fmt("%.1f s", b.idle.settle_s));
  s.baselines.push_back(std::move(b));
  s.current_baseline[state] = s.baselines.size() - 1;
  s.since_baseline[state] = 0;
  return &s.baselines.back();
}

// Mean current clock of `cpus` (all CPUs when empty), MHz; NaN if unknown.
double cpu_mhz(const platform::Platform& p, const platform::Snapshot& s,
               const std::vector<int>& cpus) {
  double sum = 0;
  int n = 0;
  for (size_t i = 0; i < p.cpus.size() && i < s.cpu_cur_khz.size(); ++i) {
    if (s.cpu_cur_khz[i] < 0) continue;
    if (!cpus.empty() && std::find(cpus.begin(), cpus.end(), p.cpus[i].id) == cpus.end()) continue;
    sum += s.cpu_cur_khz[i] / 1e3;
    ++n;
  }
  return n ? sum / n : NAN;
}

std::string join_rails(const std::vector<std::string>& rails) {
  std::string out;
  for (const auto& r : rails) out += (out.empty() ? "" : "+") + r;
  return out.empty() ? "(none)" : out;
}

double gpu_mhz(const platform::Snapshot& s) { return s.gpu_cur_hz < 0 ? NAN : s.gpu_cur_hz / 1e6; }

// Usage errors a device entry can only reveal on this machine: a CPU set the
// platform lacks, or a cuDNN ReLU in a build without cuDNN. Each names the
// config's place for the value.
std::vector<std::string> device_problems(const Config& cfg, const platform::Platform& platform) {
  std::vector<std::string> out;
  for (const auto& d : cfg.devices) {
    if (d.kind == "cpu") {
      try {
        platform::resolve_cpu_set(platform, d.cpus);
      } catch (const std::exception& e) {  // UsageError, or no CPUs under the sysfs root
        const std::string key = "devices." + d.label;
        out.push_back(cfg.at(cfg.where.count(key + ".cpus") ? key + ".cpus" : key) + ": device " +
                      d.label + ": " + e.what());
      }
    }
    if (d.kind == "gpu" && cfg.gpu.relu == "cudnn" && EDPBENCH_HAVE_CUDA && !EDPBENCH_HAVE_CUDNN)
      out.push_back(cfg.at("gpu.relu") +
                    ": gpu.relu is cudnn but this build has no cuDNN (install cuDNN and "
                    "reconfigure with -DEDPBENCH_WITH_CUDNN=ON, or use relu: kernel)");
  }
  return out;
}

void validate_devices(const Config& cfg, const platform::Platform& platform) {
  const auto problems = device_problems(cfg, platform);
  if (!problems.empty()) throw UsageError(problems.front());
}

std::vector<std::string> machine_problems(Sweep& s, const std::string& sysfs_root) {
  std::vector<std::string> out;
  try {
    select_total_rails(s);
  } catch (const UsageError& e) {
    out.push_back(s.cfg.at("power.total_rails") + ": power.total_rails: " + e.what());
  }
  for (auto& p : device_problems(s.cfg, s.prober.platform())) out.push_back(std::move(p));
  // A Jetson's GPU allocates from the same DRAM as the CPU.
  for (auto& p : memory_problems(s.cfg, memory_limit(sysfs_root), s.prober.platform().is_jetson()))
    out.push_back(std::move(p));
  return out;
}

power::EnergyMeter open_meter(const Config& cfg, const std::string& sysfs_root,
                              std::vector<std::string>& problems) {
  const power::PowerOptions o = power_options(cfg.power, sysfs_root);
  try {
    return power::EnergyMeter::open(o);
  } catch (const UsageError& e) {
    const std::string key = cfg.power.source == "trace" && cfg.where.count("power.trace.file")
                                ? "power.trace.file"
                                : "power.source";
    problems.push_back(cfg.at(key) + ": power: " + e.what());
    return power::EnergyMeter::from_sensors({}, o);
  }
}

// Waits for cooldown_s and for the hottest zone to fall below
// max_start_temp_c (at most 10 minutes), so runs start from the same state.
std::string cool_down(Sweep& s) {
  if (s.cfg.cooldown_s > 0) {
    const auto until = Clock::now() + std::chrono::duration<double>(s.cfg.cooldown_s);
    while (Clock::now() < until) {
      throw_if_stop_requested();
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  }
  if (s.cfg.max_start_temp_c <= 0) return "";
  const auto t0 = Clock::now();
  while (true) {
    const double t = s.prober.snapshot().max_temp_c;
    if (std::isnan(t) || t < s.cfg.max_start_temp_c) return "";
    if (seconds_since(t0) > 600)
      return "started at " + fmt("%.1f", t) + " C after waiting 600 s to cool below " +
             fmt("%.1f", s.cfg.max_start_temp_c) + " C";
    throw_if_stop_requested();
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
  }
}

// The rails whose sum is "energy" (DESIGN §4.1), checked against the source
// before anything is measured: an unknown or nested explicit list is a usage
// error. The sampler judges update interval, freezing and lag on them.
void select_total_rails(Sweep& s) {
  if (!s.meter.measures_energy()) return;
  const power::TotalRails chosen = power::choose_total_rails(
      s.meter.rails(), rail_roles(s.prober.platform()), s.cfg.power.total_rails);
  s.total_rails = chosen.rails;
  s.total_rails_why = chosen.why;
  s.meter.set_total_rails(s.total_rails);
}

// power.min_run_s, or with `auto` 20 update intervals of the total rails
// (DESIGN §3), as measured so far (0 while unknown).
double min_window_s(const Sweep& s, const ProtocolSettings& settings) {
  if (!settings.min_run_auto) return settings.min_run_s;
  return 20 * s.meter.observed_update_interval_s();
}

}  // namespace edp::bench
