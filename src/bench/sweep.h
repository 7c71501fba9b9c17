// What a sweep shares between its plan items (DESIGN §3, §9): the config,
// the platform probe, the energy meter and its total rails, the idle
// baselines in each state, the backends' facts, progress. Every study's
// items are measured against one Sweep.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "bench/baseline.h"
#include "bench/config.h"
#include "bench/gemm_choice.h"
#include "bench/plan.h"
#include "bench/progress.h"
#include "common/text.h"
#include "platform/platform.h"
#include "power/energy_meter.h"
#include "report/records.h"

namespace edp::bench {

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
  std::vector<std::string> point_log;  // operating points applied and restored
  std::unique_ptr<Progress> progress;
  // Called after each measured run, with its part's record so far: a client
  // that keeps what is complete through an interruption (`measure` writes
  // its files after every run).
  std::function<void(const report::PartRecord&, const report::RunRecord&)> on_run;
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
// Every device entry's problem on this machine, each "FILE:LINE:COL: ...".
std::vector<std::string> device_problems(const Config& cfg, const platform::Platform& platform);
// What the config asks that this machine cannot give, all of it: the total
// rails (selects them), the device entries, the sizes against memory.
std::vector<std::string> machine_problems(Sweep& s, const std::string& sysfs_root);
// The power source, or (its usage error noted in `problems`, with the
// config's place) an empty meter, so that checking can go on.
power::EnergyMeter open_meter(const Config& cfg, const std::string& sysfs_root,
                              std::vector<std::string>& problems);

// power.min_run_s, or with `auto` 20 update intervals of the total rails.
double min_window_s(const Sweep& s, const ProtocolSettings& settings);

// Waits for cooldown_s and for the hottest zone to fall below
// max_start_temp_c (at most 10 minutes); returns a note when it gave up.
std::string cool_down(Sweep& s);

// "VDD_IN+VDD_SYS_GPU", or "(none)".
std::string join_rails(const std::vector<std::string>& rails);

}  // namespace edp::bench
