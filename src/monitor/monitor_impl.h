// The state behind edpbench::Monitor (pimpl): shared by monitor.cpp (windows)
// and monitor_output.cpp (recorded runs and their files). Not installed.
#pragma once

#include <cmath>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "bench/window.h"
#include "edpbench/monitor.h"
#include "power/energy_meter.h"
#include "report/records.h"

namespace edpbench {

struct Monitor::Impl {
  explicit Impl(const MonitorOptions& o);
  // Takes the open window `name` out of `open` (under the lock); throws
  // "not open" + how_to_open when it is not open (or still opening).
  std::unique_ptr<edp::bench::RunWindow> take(const std::string& name, const char* how_to_open);

  MonitorOptions options;
  edp::power::EnergyMeter meter;
  std::vector<std::string> total;  // the total rails
  std::string why;                 // why these

  mutable std::mutex mutex;  // guards what follows
  // The open windows, each the engine's own window (bench::RunWindow: the
  // same begin, end and judgement as a run of `run`). A name maps to null
  // while its window is being opened outside the lock.
  std::map<std::string, std::unique_ptr<edp::bench::RunWindow>> open;
  double baseline_w = NAN;  // of the total rails, from the last measure_idle
  IdleResult idle;
  bool have_idle = false;
  // measure_idle is running: no window may open meanwhile (the baseline must
  // be idle), and a second measure_idle waits its turn by failing.
  bool idling = false;
  // Recorded runs: one item per (workload, size, device), its one part
  // holding the runs, its values the shape (n, d_in, h, d_out).
  std::vector<edp::report::ItemRecord> configs;
};

}  // namespace edpbench
