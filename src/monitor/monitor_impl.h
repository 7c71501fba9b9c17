// The state behind edpbench::Monitor (pimpl): shared by monitor.cpp (windows)
// and monitor_output.cpp (recorded runs and their files). Not installed.
#pragma once

#include <cmath>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "edpbench/monitor.h"
#include "power/energy_meter.h"
#include "report/records.h"

namespace edpbench {

struct Monitor::Impl {
  explicit Impl(const MonitorOptions& o);

  MonitorOptions options;
  edp::power::EnergyMeter meter;
  std::vector<std::string> total;  // the total rails
  std::string why;                 // why these

  mutable std::mutex mutex;  // guards what follows
  std::set<std::string> open;
  double baseline_w = NAN;  // of the total rails, from the last measure_idle
  IdleResult idle;
  bool have_idle = false;
  // Recorded runs: one item per (workload, size, device), its one part
  // holding the runs, its values the shape (n, d_in, h, d_out).
  std::vector<edp::report::ItemRecord> configs;
};

}  // namespace edpbench
