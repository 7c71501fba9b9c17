// Sweep-wide state and helpers (see sweep.h).
#include "bench/sweep.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <thread>

#include "bench/board_rails.h"
#include "bench/memory_check.h"
#include "bench/signals.h"
#include "common/errors.h"
#include "edpbench/config.h"
#include "platform/cpu_list.h"
#include "platform/operating_point.h"
#include "power/total_rails.h"

namespace edp::bench {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

}  // namespace

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

std::string join_rails(const std::vector<std::string>& rails) {
  return rails.empty() ? "(none)" : join(rails, "+");
}

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

namespace {

// power.sampler_cpu must be a CPU this process may run on (it was a warning
// when the sampler started, and the sampler ran unpinned).
std::vector<std::string> sampler_cpu_problems(const Config& cfg) {
  const int cpu = cfg.power.sampler_cpu;
  if (cpu < 0) return {};
  const std::vector<int> allowed = platform::allowed_cpus();
  if (allowed.empty() || std::find(allowed.begin(), allowed.end(), cpu) != allowed.end()) return {};
  return {cfg.at("power.sampler_cpu") + ": power.sampler_cpu " + std::to_string(cpu) +
          " is not a CPU this process may run on (" + platform::format_cpu_list(allowed) +
          "); pick one of them, or -1 not to pin the sampler"};
}

// Each operating point against this board (DESIGN §10), every problem at
// the place of the value that causes it: each setting is resolved on its
// own, then the point whole (settings that contradict each other).
std::vector<std::string> point_problems(const Config& cfg, const platform::Platform& p) {
  using Point = platform::OperatingPoint;
  const std::vector<std::pair<const char*, void (*)(const Point&, Point&)>> settings{
      {"nvpmodel", [](const Point& a, Point& b) { b.nvpmodel = a.nvpmodel; }},
      {"cpu_max_khz", [](const Point& a, Point& b) { b.cpu_max_khz = a.cpu_max_khz; }},
      {"cpu_min_khz", [](const Point& a, Point& b) { b.cpu_min_khz = a.cpu_min_khz; }},
      {"gpu_max_hz", [](const Point& a, Point& b) { b.gpu_max_hz = a.gpu_max_hz; }},
      {"gpu_min_hz", [](const Point& a, Point& b) { b.gpu_min_hz = a.gpu_min_hz; }},
      {"emc_max_hz", [](const Point& a, Point& b) { b.emc_max_hz = a.emc_max_hz; }},
      {"cpus_online", [](const Point& a, Point& b) { b.cpus_online = a.cpus_online; }},
      {"cpu_governor", [](const Point& a, Point& b) { b.cpu_governor = a.cpu_governor; }},
  };
  std::vector<std::string> out;
  if (cfg.operating_points.empty()) return out;
  // Root on the real board is refused before anything of the board is read
  // (the order check_points keeps).
  const platform::PrivilegeReport root = platform::check_privileges(p, {});
  if (!root.ok()) return {root.message()};
  for (const Point& point : cfg.operating_points) {
    const std::string at = "operating_points." + point.name;
    bool bad = false;
    for (const auto& [key, copy] : settings) {
      if (!cfg.where.count(at + "." + key)) continue;  // not given
      Point one;
      one.name = point.name;
      copy(point, one);
      try {
        platform::validate_points(p, {one});
      } catch (const UsageError& e) {
        out.push_back(cfg.at(at + "." + key) + ": " + e.what());
        bad = true;
      }
    }
    if (bad) continue;
    try {
      platform::validate_points(p, {point});
    } catch (const UsageError& e) {
      out.push_back(cfg.at(at) + ": " + e.what());
    }
  }
  return out;
}

}  // namespace

std::vector<std::string> machine_problems(Sweep& s, const std::string& sysfs_root) {
  std::vector<std::string> out;
  try {
    select_total_rails(s);
  } catch (const UsageError& e) {
    out.push_back(s.cfg.at("power.total_rails") + ": power.total_rails: " + e.what());
  }
  for (auto& p : device_problems(s.cfg, s.prober.platform())) out.push_back(std::move(p));
  for (auto& p : sampler_cpu_problems(s.cfg)) out.push_back(std::move(p));
  for (auto& p : point_problems(s.cfg, s.prober.platform())) out.push_back(std::move(p));
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
    // A trace file the config check refused is reported once, from there.
    if (cfg.power.source == "trace" && !cfg.problems.empty() &&
        !trace_file_problem(cfg.power.trace.file).empty())
      return power::EnergyMeter::from_sensors({}, o);
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
