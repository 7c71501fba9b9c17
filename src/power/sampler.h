// The sampler thread (DESIGN §4): one thread reads every sensor on a fixed
// steady_clock period, waiting for absolute deadlines (never a sleep of fixed
// length, so read time does not add up into drift), and feeds each open
// energy window's streaming integrators. Memory is preallocated and bounded:
// a short ring of recent ticks (for the leading edge of a new window) plus
// constant state per open window, so windows of hours cost nothing extra.
// Deadlines that pass while a read is still running are counted as missed and
// skipped; those that passed because the sensor's read itself took longer than
// a period (an NVML call on an H200 now and then) are counted apart from those
// the thread was late to start (a busy machine), since only the latter say the
// machine disturbed the measurement. Failed reads are counted, never thrown.
//
// Two things outlive windows (DESIGN §12): per rail a running energy counter
// and the latest power (counters(), for the exporter), updated at every tick
// at constant cost; and, when asked (set_timeline_hz), a window's readings
// over time (Measurement::timeline), kept in a buffer of fixed size that
// begin_window allocates, so a tick never allocates.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "power/integrate.h"
#include "power/lag_correction.h"
#include "power/measurement.h"
#include "power/sensor.h"

namespace edp::power {

struct SamplerRail {
  size_t sensor;  // index into the sensor list
  std::string sensor_name;
  std::string rail;  // unique among all sensors ("nvml:gpu0" when two share a name)
  ValueKind kind;
  RailInfo info;  // as the sensor declared it (info.rail is the sensor's own name)
};

// The sampler thread's name (/proc/self/task/TID/comm), so that a probe of the
// workload's threads can leave it out.
inline constexpr const char* kSamplerThreadName = "edp-sampler";

class Sampler {
 public:
  // Sensors must outlive the sampler. cpu < 0: not pinned.
  Sampler(std::vector<Sensor*> sensors, double rate_hz, int cpu, size_t history_ticks = 512);
  ~Sampler();
  Sampler(const Sampler&) = delete;
  Sampler& operator=(const Sampler&) = delete;

  // Starts the thread and returns once the first tick is recorded.
  void start();
  void stop();
  bool running() const { return thread_.joinable(); }

  // Window names are unique among open windows; windows may nest and overlap.
  // begin_window starts the sampler if needed. end_window wakes the sampler
  // for an extra tick (the schedule of deadlines is unchanged) and waits for
  // it, so the trailing edge is interpolated, not extrapolated, and the wait
  // is one read long even at low rates. Both throw edp::UsageError for a name
  // that is already open / not open. `at_end`, when given, runs once the
  // window's end is fixed, before the wait for the lag tail, without the
  // sampler's lock: what the caller reads there is outside the window and not
  // delayed by the wait (the interference probe's second snapshot).
  // timeline: keep this window's readings over time when the sampler keeps
  // timelines (set_timeline_hz); the idle baselines do not.
  void begin_window(const std::string& name, bool timeline = true);
  Measurement end_window(const std::string& name, const std::function<void()>& at_end = {});
  // Drops an open window without waiting for its tail. Throws edp::UsageError
  // for a name that is not open (or is being ended).
  void cancel_window(const std::string& name);
  // See EnergyMeter::set_total_rails. Unknown names are ignored.
  void set_total_rails(const std::vector<std::string>& rails);

  // Timelines (Measurement::timeline): at most `hz` points a second per
  // window (0 = none), for windows opened from now on.
  void set_timeline_hz(double hz);
  // Points a window's timeline holds at most; see Timeline.
  static constexpr size_t kTimelinePoints = 2048;
  // The pre-roll before a window's start that its timeline shows (s): the
  // power the window opened on, from the ring of recent ticks.
  static constexpr double kTimelinePrerollS = 0.5;

  // Every rail's running counter and latest power, and the sampler's
  // counts, now. Cheap: no sensor is read.
  Counters counters() const;

  struct Stats {
    double cpu_s = 0;   // CPU time of the sampler thread
    double wall_s = 0;  // since start
    size_t ticks = 0, missed_deadlines = 0, read_failures = 0;
    size_t missed_in_slow_reads = 0;  // of missed_deadlines: the sensor's read took that long
  };
  Stats stats() const;
  const std::vector<SamplerRail>& rails() const { return rails_; }
  double period_s() const { return period_s_; }
  // Update interval of the total rails (robust_update_interval over each
  // rail's recent changes, largest over the total rails); 0 while unknown.
  double observed_update_interval_s() const;
  // Whether every averaging total rail has a period for the lag correction
  // (stated by the sensor, or measured from its updates).
  bool averaging_periods_known() const;
  // Text of the pinning failure, empty if pinned or not asked to pin.
  std::string pin_error() const;

 private:
  // A window's timeline: `capacity` points preallocated by begin_window.
  struct TimelineBuffer {
    double spacing_s = 0, last_t = 0;
    size_t count = 0;
    std::vector<double> t, values;  // values[point * rails + rail]
    // Keeps the tick at t when due (or forced); halves the resolution when full.
    void add(double t_s, const double* v, size_t n, double tolerance_s, bool force);
  };

  struct Window {
    double t0 = 0, t1 = std::numeric_limits<double>::infinity();
    double t0_unix = 0;
    bool ending = false, done = false;
    double wait_until = 0;  // steady_clock s: latest tick the lag correction waits for
    size_t ticks = 0, failures = 0, missed_at_begin = 0, slow_missed_at_begin = 0;
    std::vector<size_t> rail_failures;       // failed reads per rail inside the window
    std::vector<size_t> anomalies_at_begin;  // per sensor
    std::string error;
    std::vector<RailIntegrator> integrators;
    // Averaging rails with a known period: the lag correction (else empty).
    std::vector<std::unique_ptr<LagCorrector>> correctors;
    bool keep_timeline = false;
    TimelineBuffer timeline;
  };

  // Per rail over the sampler's life: the running counter (see RailCounter).
  struct RunningEnergy {
    bool have = false;  // a valid reading since the thread (re)started (counters: ever)
    double t = 0, v = 0;
    double energy_j = 0;
    double power_w = std::numeric_limits<double>::quiet_NaN();
    size_t failures = 0;
  };

  // Per rail, over the sampler's life: the value and when it last changed,
  // and a ring of recent change times for the update interval.
  struct ChangeTracker {
    static constexpr size_t kRing = 48;
    bool have_value = false;
    double value = 0, last_t = 0;  // last valid reading
    size_t changes = 0;
    double last_change_s = 0;
    double ring[kRing] = {};
  };

  void run();
  // Robust; 0 while unknown. A rail with too few changes of its own takes
  // the interval of a sibling on the same chip (info.device).
  double rail_interval_locked(size_t r) const;
  double own_interval_locked(size_t r) const;  // from the rail's own changes only
  double observed_update_interval_locked() const;
  void accumulate(double t);  // the running counters, at every tick
  Timeline build_timeline(const Window& w) const;
  bool window_resolved(const Window& w, double t) const;
  void tick(double t, size_t failed, const std::string& error);  // with mutex_ held

  std::vector<Sensor*> sensors_;
  std::vector<SamplerRail> rails_;
  std::vector<size_t> offsets_;  // first rail of each sensor
  double period_s_;
  int cpu_;

  mutable std::mutex mutex_;
  std::condition_variable tick_cv_;  // a tick was recorded
  std::condition_variable wake_cv_;  // wakes the sleeping sampler: stop, or tick now
  bool stop_ = false;
  bool tick_now_ = false;
  bool running_ = false;  // the thread is in its loop (guarded, unlike thread_.joinable())
  std::thread thread_;

  // Guarded by mutex_.
  std::vector<double> current_;  // values of the tick being read (sampler thread only)
  std::vector<double> ring_t_, ring_values_;
  size_t ring_head_ = 0, ring_count_ = 0, history_;
  std::map<std::string, Window> windows_;
  std::vector<ChangeTracker> changes_;
  std::vector<RunningEnergy> running_energy_;
  double timeline_hz_ = 0;
  std::vector<bool> total_;           // per rail: part of the total
  std::vector<size_t> anomalies_;     // per sensor, as last read
  std::vector<std::string> anomaly_;  // per sensor, the last text
  size_t ticks_ = 0, missed_ = 0, failures_ = 0;
  size_t slow_read_missed_ = 0;  // the part of missed_ spent inside reads longer than a period
  double start_s_ = 0, stop_s_ = 0, final_cpu_s_ = 0;
  std::string pin_error_;
};

}  // namespace edp::power
