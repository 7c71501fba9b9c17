// The state behind edpbench::Monitor (pimpl): shared by monitor.cpp (windows)
// and monitor_output.cpp (recorded runs and their files). Not installed.
#pragma once

#include <cmath>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "bench/engine/session.h"
#include "bench/engine/window.h"
#include "edpbench/monitor.h"
#include "report/records.h"
#include "report/samples_csv.h"

namespace edpbench {

struct Monitor::Impl {
  explicit Impl(const MonitorOptions& o);
  // Takes the open window `name` out of `open` (under the lock); throws
  // "not open" + how_to_open when it is not open (or still opening).
  std::unique_ptr<edp::bench::RunWindow> take(const std::string& name, const char* how_to_open);

  MonitorOptions options;
  // The engine's session (bench/engine/session.h), as `run` builds one: the
  // meter, the total rails, settling, the idle baselines, the windows.
  edp::bench::Session session;
  std::string why;  // why these total rails (and whether settling failed)
  // This monitor's name in context.json's monitor.writers ("host:pid:n:time"):
  // write() replaces only rows written under it.
  std::string writer;

  mutable std::mutex mutex;  // guards what follows
  // The open windows, each the engine's own window (bench::RunWindow: the
  // same begin, end and judgement as a run of `run`). A name maps to null
  // while its window is being opened outside the lock.
  std::map<std::string, std::unique_ptr<edp::bench::RunWindow>> open;
  IdleResult idle;  // the last measure_idle (its baseline: the session's "host" one)
  bool have_idle = false;
  // measure_idle is running: no window may open meanwhile (the baseline must
  // be idle), and a second measure_idle waits its turn by failing.
  bool idling = false;
  // Recorded runs: one item per (workload, size, device), its one part
  // holding the runs, its values the shape (n, d_in, h, d_out).
  std::vector<edp::report::ItemRecord> configs;
  // The recorded windows' timelines (samples.csv), in record order.
  std::vector<edp::report::WindowSamples> timelines;
};

}  // namespace edpbench
