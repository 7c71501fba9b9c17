// What `edpbench exporter` serves on /metrics (DESIGN §12): the sampler's
// running counters (power::Counters) as Prometheus metric families, named by
// Prometheus's conventions (base units, `_total` on counters, `_info` for
// facts). Pure: the families are built from data and serialized by
// prometheus-cpp's TextSerializer (text exposition format 0.0.4), so the tests
// check the text against the format's rules without a socket.
#pragma once

#include <map>
#include <string>
#include <vector>

#include <prometheus/metric_family.h>

#include "bench/exporter/sweep_progress.h"
#include "power/measurement.h"

namespace edp::bench {

// The facts of the board the exporter runs on: edpbench_board_info's labels.
struct BoardInfo {
  std::string model;        // device-tree model or DMI product name
  std::string board;        // the board table's name ("jetson-tx2"), "" unknown
  std::string l4t;          // "R32.7.1", "" when not L4T
  std::string nvpmodel;     // "MAXN", "" unknown
  std::string source;       // the power source ("jetson", "trace", ...)
  std::string total_rails;  // "VDD_IN" or "A+B"
  std::string version;      // edpbench's
};

// A counter that a reader restarting from zero cannot make go backwards: a
// value below the last one seen means the source started over (a sampler
// restart, a sensor re-opened), so what was counted before is kept as a base
// and the new value added to it. NaN and infinities are ignored (the last
// total stands).
class MonotonicCounter {
 public:
  double update(double value);
  double value() const { return base_ + last_; }

 private:
  double base_ = 0;
  double last_ = 0;
};

// Every counter the exporter serves, kept monotonic across scrapes.
class ExporterCounters {
 public:
  // Feeds one snapshot of the sampler's counters; returns them with every
  // energy and count replaced by its monotonic total.
  power::Counters update(const power::Counters& now);

 private:
  std::map<std::string, MonotonicCounter> rail_energy_j_;  // "sensor/rail"
  MonotonicCounter energy_j_, ticks_, missed_deadlines_, read_failures_, sampler_cpu_s_;
  std::map<std::string, MonotonicCounter> rail_failures_;
};

// The metric families of one scrape, from counters already made monotonic.
// `sampler_period_s` is 1 / power.rate_hz.
std::vector<prometheus::MetricFamily> exporter_families(const power::Counters& counters,
                                                        const BoardInfo& board,
                                                        double sampler_period_s);

// A one-sample counter family about the exporter itself (scrapes, CPU).
prometheus::MetricFamily exporter_self_family(const std::string& name, const std::string& help,
                                              double value);

// The textfile's families: edpbench_sweep_* (progress, status as a state
// set, the last item's result as gauges and an _info).
std::vector<prometheus::MetricFamily> sweep_families(const SweepProgress& p);

// The families in the text exposition format (prometheus-cpp's serializer).
std::string exposition_text(const std::vector<prometheus::MetricFamily>& families);

}  // namespace edp::bench
