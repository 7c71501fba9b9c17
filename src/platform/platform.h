// The platform probe: what board this is (model, L4T, nvpmodel), its CPU
// clusters, clocks, governors and thermal zones. Every path is read under a
// relocatable sysfs root so the tests run against fake trees
// (tests/fixtures/platform/). Discovery happens once (probe(), Prober's
// constructor); Prober::snapshot() then only preads files it keeps open.
// Nothing here fails because a file is missing: unknown values stay -1, NAN
// or "" and are reported as unknown.
#pragma once

#include <cmath>
#include <string>
#include <vector>

#include "platform/sysfs.h"

namespace edp::platform {

struct CpuInfo {
  int id = -1;
  bool online = false;
  // "denver", "a57", "carmel", "a78ae", ... on ARM (from CPU implementer and
  // part), "x86" on x86, "" when unknown.
  std::string cluster;
  std::string governor;    // cpufreq scaling_governor; "" when there is no cpufreq
  long cur_khz = -1;       // scaling_cur_freq
  long max_khz = -1;       // scaling_max_freq: the policy cap the governor may reach
  long hw_max_khz = -1;    // cpuinfo_max_freq: the hardware maximum
  long base_khz = -1;      // base_frequency (intel_pstate only): the non-turbo clock
  std::string model_name;  // /proc/cpuinfo "model name", when the kernel gives one
};

struct ThermalZone {
  std::string type;  // e.g. "BCPU-therm", "GPU-therm", "x86_pkg_temp"
  double temp_c = NAN;
  int index = -1;  // N of /sys/class/thermal/thermal_zoneN
};

struct Platform {
  std::string sysfs_root;  // "" = the real root
  std::string model;       // device-tree model, or DMI product_name on x86
  std::string soc;         // "tegra186", ... from the device-tree compatible list
  std::string compatible;  // the device-tree compatible entries, space-separated
  // The board-table entry (platform/boards.h) the board was identified as,
  // how ("model", "compatible", "soc"; "" = not in the table), and why.
  std::string board, board_by, board_why;
  std::string l4t_release;    // "R32.7.1"; "" when not L4T
  std::string nvpmodel_mode;  // "MAXN"; "" when unknown
  int nvpmodel_id = -1;
  std::vector<CpuInfo> cpus;     // every present CPU, sorted by id
  std::string gpu_devfreq_path;  // relative to sysfs_root; "" when no GPU devfreq node
  std::string gpu_governor;
  long gpu_cur_hz = -1, gpu_max_hz = -1;
  // The GPU's rail-gating (platform/gpu_devfreq.h): after gpu_railgate_delay_ms
  // idle the driver powers its rail off; -1 where the board does not say.
  std::string gpu_railgate_path;  // relative to sysfs_root; "" when none
  int gpu_railgate_enable = -1;
  long gpu_railgate_delay_ms = -1;
  long emc_hz = -1;                  // external memory clock, from debugfs; usually needs root
  std::vector<ThermalZone> thermal;  // sorted by zone index

  bool is_jetson() const;
  // Online CPU ids, sorted.
  std::vector<int> online_cpus() const;
  // Cluster names in order of first appearance ("a57", "denver").
  std::vector<std::string> clusters() const;
  // Index into `cpus` of CPU `id`, or -1.
  int cpu_index(int id) const;
};

// Discovers everything under `sysfs_root`. Throws edp::UsageError only when a
// non-empty root is not a directory.
Platform probe(const std::string& sysfs_root = "");

// Clocks and temperatures at one instant, taken at the start and end of runs.
struct Snapshot {
  double t_s = 0;                 // steady_clock seconds: the clock the run timer uses
  std::vector<long> cpu_cur_khz;  // [i] belongs to platform().cpus[i]; -1 unknown
  long gpu_cur_hz = -1;
  // Hottest zone; leaves out zones that report a constant (TX2 "PMIC-Die").
  double max_temp_c = NAN;
  std::vector<double> temps_c;  // [i] belongs to platform().thermal[i]; NAN unknown
};

// Discovers once and keeps the clock and temperature files open; snapshot()
// preads them and is cheap enough to call around every run. Move-only.
class Prober {
 public:
  explicit Prober(const std::string& sysfs_root = "");
  explicit Prober(Platform platform);  // reuse a probe() result

  const Platform& platform() const { return platform_; }
  Snapshot snapshot() const;

 private:
  Platform platform_;
  std::vector<Fd> cpu_cur_;  // parallel to platform_.cpus
  Fd gpu_cur_;
  std::vector<Fd> temps_;  // parallel to platform_.thermal
};

// True when a clock the workload depends on is below `nominal_fraction` of
// its nominal value in `s`. For each CPU in `cpus` the nominal value is its
// scaling_max_freq (capped at base_frequency where the driver reports one, so
// that all-core turbo below single-core turbo does not count); with `gpu` the
// GPU devfreq cur_freq is compared with max_freq. Clocks that are unknown in
// either the platform or the snapshot are not judged. `why`, when given,
// receives one clause per slow clock ("cpu3 at 345600 kHz < 95% of 2035200 kHz").
bool throttled(const Platform& p, const Snapshot& s, const std::vector<int>& cpus, bool gpu,
               double nominal_fraction = 0.95, std::string* why = nullptr);

// Resolves a config `cpus:` value into the sorted online CPU ids it names.
// `spec` is a comma-separated list of terms; a term is `all`, a cluster name
// (`a57`, `denver`, or whatever clusters() reports), a CPU id or a range
// `N-M`. A cluster name or `all` selects the cluster's online CPUs; an
// explicit id must exist and be online. Throws edp::UsageError naming the
// problem and what is valid on this machine.
std::vector<int> resolve_cpu_set(const Platform& p, const std::string& spec);

std::string to_json(const Platform& p);  // one JSON object; unknown values are null
std::string to_text(const Platform& p);  // human-readable, for `edpbench probe`

}  // namespace edp::platform
