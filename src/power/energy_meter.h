// The power library's front door, as the runner uses it (DESIGN §3-4):
//
//   auto meter = edp::power::EnergyMeter::open(options);   // discovery
//   meter.begin_window("run-3");
//   ... timed work ...
//   edp::power::Measurement m = meter.end_window("run-3");
//   double joules = m.energy_j({"VDD_IN"});
//
// The meter owns the sensors and the sampler thread (started lazily by the
// first window) and is move-only.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "power/clock.h"
#include "power/measurement.h"
#include "power/options.h"
#include "power/sensor.h"

namespace edp::power {

// One row of the `sensors` command.
struct SensorReadout {
  std::string sensor, rail;
  RailReading reading;  // counters: power_w derived from two successive reads
  double unix_s = 0;    // when the sensor was read (CLOCK_REALTIME)
  bool ok = true;
  std::string error;
};

// How long EnergyMeter::measure_idle lets the sensor settle before it
// measures, for a total-rail update interval of interval_s (0: unknown):
// the update that follows the work may still average some of it and two
// more are idle through and through, so three intervals, at least 0.5 s for
// the clocks to drop; while the interval is unknown, up to 5 s for it to
// appear. `plan` budgets each baseline with it.
double idle_settle_s(double interval_s);

class EnergyMeter {
 public:
  // Discovery; throws edp::UsageError for a requested-but-missing source.
  static EnergyMeter open(const PowerOptions& options);
  // A meter over sensors built by the caller (tests, benchmarks).
  static EnergyMeter from_sensors(std::vector<std::unique_ptr<Sensor>> sensors,
                                  const PowerOptions& options,
                                  std::vector<std::string> discovery_log = {});

  EnergyMeter(EnergyMeter&&) noexcept;
  EnergyMeter& operator=(EnergyMeter&&) noexcept;
  EnergyMeter(const EnergyMeter&) = delete;
  EnergyMeter& operator=(const EnergyMeter&) = delete;
  ~EnergyMeter();

  std::string source_name() const;              // e.g. "jetson", "rapl+nvml", "trace", "none"
  std::vector<std::string> rail_names() const;  // "VDD_IN", "package-0", ...
  // Every rail as its sensor declared it (timing, parent, device), with the
  // unique name of rail_names() in .rail, and the sensor's name.
  struct Rail {
    std::string sensor;
    RailInfo info;
  };
  std::vector<Rail> rails() const;
  std::vector<std::string> discovery_log()
      const;                     // human-readable lines: what was tried, found, missing
  bool measures_energy() const;  // false for none
  // Starts the sampler thread now (begin_window otherwise starts it lazily).
  // Call it before pinning the calling thread: the sampler inherits the
  // caller's CPU mask unless power.sampler_cpu pins it.
  void start();
  // The rails whose sum is "energy" (power::choose_total_rails). They alone
  // decide the update interval, the frozen flag and how long end_window
  // keeps sampling after the window for the lag correction. Default (never
  // called): all. An empty list is none: no total could be determined.
  void set_total_rails(const std::vector<std::string>& rails);
  // end_window returns once every averaging total rail has published the
  // values that cover the window's end (up to ~2 update intervals after it,
  // DESIGN §4.2); the Measurement's t1 is the moment end_window was called.
  // timeline: the window keeps its readings over time when the meter does
  // (PowerOptions::timeline_hz, set_timeline_hz).
  void begin_window(const std::string& name, bool timeline = true);  // starts the sampler lazily
  // at_end: see Sampler::end_window (runs after the end is fixed, before the wait).
  Measurement end_window(const std::string& name, const std::function<void()>& at_end = {});
  void cancel_window(const std::string& name);  // no result, no wait
  // The idle baseline (DESIGN §3): first lets the sensor settle, that is
  // waits until the total rails have published at least two updates after
  // the one that can still hold the last run's power (3 update intervals
  // from the call, at least 0.5 s for the clocks to drop; the interval is
  // the observed one, else the one the sensors state; while neither is
  // known, until one is observed or 5 s passed), then measures mean power
  // per rail over `seconds`. Rails whose reads failed meanwhile are left out.
  // `keep_going` is polled every 50 ms; when it returns false the
  // measurement is abandoned (empty power_w).
  struct IdleBaseline {
    std::map<std::string, double> power_w;  // per rail
    double settle_s = 0;                    // waited before measuring
    double duration_s = 0;                  // measured over
    double start_unix_s = 0;                // when the measurement window opened
    double update_interval_s = 0;           // of the total rails, when it was taken
  };
  IdleBaseline measure_idle(double seconds, const std::function<bool()>& keep_going = {});
  // measure_idle(...).power_w
  std::map<std::string, double> measure_idle_w(double seconds,
                                               const std::function<bool()>& keep_going = {});
  // Starts the sampler and waits (at most max_s, polling keep_going) until
  // every averaging total rail's period is known, so that the first window
  // can be lag-corrected. Returns whether it is; immediately true without
  // averaging total rails.
  bool await_averaging_periods(double max_s, const std::function<bool()>& keep_going = {});
  // Timelines at up to `hz` points a second for windows opened from now
  // on; 0 = none (PowerOptions::timeline_hz).
  void set_timeline_hz(double hz);
  // Every rail's running energy counter and latest power (Sampler::counters):
  // what the exporter serves, readable at any time without a window.
  Counters counters() const;
  struct Overhead {
    double cpu_s;
    double wall_s;
    size_t ticks;
    size_t missed_deadlines;
    size_t read_failures;
  };
  Overhead sampler_overhead()
      const;  // sampler thread CPU time (CLOCK_THREAD_CPUTIME_ID) and wall since start

  // Update interval of the total rails as the sampler measures it (robust,
  // DESIGN §4.2; largest over the total rails), 0 while unknown.
  double observed_update_interval_s() const;
  // Largest update interval the sensors report about themselves (0 if none
  // does); the measured one is in each Measurement.
  double reported_update_interval_s() const;
  // One reading of every rail with voltage/current/power, for the `sensors`
  // command. Counters are read twice, counter_gap_s apart, the first time.
  // Not allowed while the sampler runs (throws std::logic_error).
  std::vector<SensorReadout> read_now(double counter_gap_s = 0.1);

 private:
  struct Impl;
  explicit EnergyMeter(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace edp::power
