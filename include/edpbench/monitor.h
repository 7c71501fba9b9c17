// edpbench's monitor API (DESIGN §11): energy windows in the user's own code,
// measured by the same sensors, total rails, sampler, lag correction and
// window judgement as `edpbench run`.
//
//   #include <edpbench/monitor.h>
//   edpbench::MonitorOptions o;            // power.source auto, 100 Hz
//   edpbench::Monitor mon(o);              // discovery; throws edpbench::Error
//   mon.measure_idle(5);                   // optional: the idle baseline
//   mon.begin_window("epoch");
//   ... the user's code ...
//   edpbench::WindowResult w = mon.end_window("epoch");
//   std::printf("%.3f s %.3f J\n", w.time_s, w.energy_j);
//
// Windows are named; any number may be open at once, nested or overlapping.
// end_window returns once an averaging sensor (a Jetson INA3221) has
// published the values that cover the window's end, so the result is final:
// that wait is up to about two update intervals (~0.8 s on a TX2), and the
// caller's code is not measured during it. Sensors with counters or
// instantaneous readings return after one sampler tick.
//
// Only the standard library is needed to use this header; link with
// edpbench::monitor (CMake: find_package(edpbench)) or
// `pkg-config --libs edpbench-monitor`.
#pragma once

#include <cstddef>
#include <limits>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <edpbench/window_fields.h>  // installed beside this header

// The library is built with hidden visibility; this marks its interface.
#if defined(__GNUC__)
#define EDPBENCH_API __attribute__((visibility("default")))
#else
#define EDPBENCH_API
#endif

namespace edpbench {

// A usage error (an unknown source, an explicit total rail that does not
// exist or nests, a window name already open or not open) or a runtime
// failure. what() says what is wrong and how to fix it.
class EDPBENCH_API Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The `power:` section of the config (DESIGN §7) that a monitor needs. The
// monitor checks them with the config's own key table: the same ranges and
// messages as a config file ("rate_hz 0: 'rate_hz' = 0 is out of range
// [1, 10000]").
struct MonitorOptions {
  std::string source = "auto";           // auto|jetson|ina226|hwmon|rapl|nvml|trace|none
  std::vector<std::string> total_rails;  // empty = auto (DESIGN §4.1)
  double rate_hz = 100;                  // sampler rate (power.rate_hz: 1 to 10000)
  std::string sysfs_root;                // "" = the real /sys and /dev
  std::string trace_file;                // a CSV t_s,<rail>_w,... to replay (implies source trace)
  bool trace_loop = true;
  int sampler_cpu = -1;  // pin the sampler thread to this CPU; -1 = not pinned
  // Wait (at most this long, seconds: power.settle_s, 0 to 600) after
  // opening until an averaging sensor's update interval is known, so the
  // first window is lag-corrected.
  double await_period_s = 5;
  // Read who had the CPUs around each window (DESIGN §3 "Interference"):
  // this process's threads' run-queue waits (/proc/self/task/*/schedstat)
  // and the machine's busy time (/proc/stat), outside the window. A window
  // is `disturbed` past the limits `run` uses.
  bool interference = true;
  // The threads the measured code runs, for cpu_share/preempted_share; 0 =
  // count them: the threads of this process that ran for at least 10% of
  // the window (the sampler left out).
  int threads = 0;
  // Keep each window's power over time (WindowResult::timeline; power.timeline,
  // DESIGN §5): at most timeline_hz points a second (power.timeline_hz: 1 to
  // 1000), at most 2048 points a window (a longer one is decimated further).
  bool timeline = false;
  double timeline_hz = 20;
  // source ina226: an INA226 on an I2C bus (power.ina226.*, DESIGN §4).
  std::string ina226_bus = "/dev/i2c-1";  // /dev/i2c-N or N
  int ina226_address = 0x40;              // 0x40 to 0x4F
  double ina226_shunt_ohm = 0.01;
  double ina226_max_current_a = 3.2;
  int ina226_averages = 4;          // 1, 4, 16, 64, 128, 256, 512, 1024
  int ina226_conversion_us = 1100;  // 140, 204, 332, 588, 1100, 2116, 4156, 8244
  bool ina226_poll_ready = false;   // read only when a conversion finished
  bool ina226_force = false;        // take the address from a bound driver
};

struct RailResult {
  std::string rail, sensor;
  double energy_j = 0;              // lag-corrected; NaN when the rail had no valid reading
  double energy_uncorrected_j = 0;  // as read (differs for averaging rails)
  double power_w_mean = 0;
  double update_interval_s = 0;  // 0 when unknown or not an averaging rail
  double lag_correction_s = 0;   // 0 = none applied
  bool total = false;            // one of the total rails
  bool frozen = false;
  std::size_t samples = 0, distinct_values = 0, read_failures = 0;
};

// A window's power over time (MonitorOptions::timeline): the sampler's
// readings, decimated, from 0.5 s before the window opened to the end of its
// lag tail. Every rail at every point, the same numbers `run --timeline`
// writes to samples.csv. (WindowResult::samples is the count of sampler
// ticks, as in runs.csv; the points are here.)
struct Timeline {
  double spacing_s = 0;            // between points, after decimation
  std::vector<double> t_s;         // from the window's start; negative before it
  std::vector<std::string> rails;  // as in WindowResult::rails
  // [rail][point]. As read (a counter: its mean power since the previous
  // point); NaN where the read failed. Lag-corrected: the value that
  // describes that instant (an averaging rail's reading one averaging period
  // later, DESIGN §4.2), NaN past the last one published.
  std::vector<std::vector<double>> power_w, corrected_power_w;
  bool empty() const { return t_s.empty(); }
};

// One closed window. NaN means "not measured". Its measurement and evidence
// are the fields of edpbench/window_fields.h (time_s, energy_j, power_w_mean,
// dynamic_energy_j, baseline_w, edp_js, samples, the edges on both clocks,
// update_interval_s, distinct_values, largest_gap_s, lag_correction_s,
// read_failures, missed_deadlines, anomalies, low_confidence, frozen,
// cpu_share, preempted_share, others_cpu_share, disturbed, note): the same
// table `edpbench run` writes runs.csv from.
struct WindowResult {
  std::string name;
  EDPBENCH_WINDOW_FIELDS(EDPBENCH_WINDOW_MEMBER)
  std::vector<RailResult> rails;  // every rail, total or not
  int threads = 0;                // the threads cpu_share and preempted_share are over
  // Why energy_j could not be trusted ("" when it can): a failed read or a
  // frozen total rail. Times are kept.
  std::string problem;
  Timeline timeline;  // empty unless MonitorOptions::timeline
  bool ok() const { return problem.empty(); }
};

struct IdleResult {
  double power_w = 0;                     // sum over the total rails; NaN if a rail failed
  std::map<std::string, double> rails_w;  // per rail
  double duration_s = 0, settle_s = 0;
  double start_unix_s = 0;
};

// Where a window's results go in edpbench's own formats (DESIGN §5).
struct RunLabel {
  std::string workload;  // e.g. "torch_tensors"
  std::string size;      // e.g. "small"
  std::string device;    // "cpu" or "gpu" (recommend compares the two kinds)
  int iterations = 1;    // steps inside the window
  double final_loss = 0.0 / 0.0;
  // Optional shape of the problem, written to results.csv.
  long long n = 0, d_in = 0, h = 0, d_out = 0;
  int threads = 0;  // 0: the threads the first recorded window counted
};

class EDPBENCH_API Monitor {
 public:
  // Discovers the sensors, chooses the total rails as `run` does, starts the
  // sampler. Throws Error for a requested source that is missing or a bad
  // total_rails list.
  explicit Monitor(const MonitorOptions& options = MonitorOptions());
  ~Monitor();
  Monitor(Monitor&&) noexcept;
  Monitor& operator=(Monitor&&) noexcept;
  Monitor(const Monitor&) = delete;
  Monitor& operator=(const Monitor&) = delete;

  // Opens a window. Throws Error when `name` is already open.
  void begin_window(const std::string& name);
  // Closes it, waits for the lag tail (see above) and judges it.
  WindowResult end_window(const std::string& name);
  // Drops an open window without a result. Throws Error when it is not open.
  void cancel_window(const std::string& name);
  std::vector<std::string> open_windows() const;

  // Idle power over `seconds` after letting the sensor settle; later
  // windows report dynamic energy over it. Settling waits three of the
  // sensor's update intervals, at least 0.5 s (the update after the last
  // work may still average some of it); when no interval is observed or
  // stated yet (an INA3221 on JetPack 4 right after opening), up to 5 s for
  // one to appear. IdleResult::settle_s says how long it waited; a monitor
  // opened with await_period_s > 0 has usually learnt the interval already.
  // Must be called with no window open;
  // begin_window (and a second measure_idle) throws Error while it runs.
  IdleResult measure_idle(double seconds);

  std::string source() const;                      // "jetson", "rapl+nvml", "trace", "none"
  std::vector<std::string> rails() const;          // every rail
  std::vector<std::string> total_rails() const;    // the rails "energy" sums
  std::string total_rails_why() const;             // why these
  std::vector<std::string> discovery_log() const;  // what was tried, found, missing
  bool measures_energy() const;                    // false for source none
  double update_interval_s() const;                // observed so far; 0 when unknown

  // Keeps a window's result as one run of a configuration (workload, size,
  // device); runs are numbered in order.
  void record(const RunLabel& label, const WindowResult& result);
  // Writes the recorded runs into `dir` as results.csv, runs.csv, rails.csv,
  // samples.csv (the recorded windows' timelines, when kept) and
  // context.json (created if needed). Rows already there for other
  // configurations are kept (so PyTorch rows can sit beside `edpbench run`
  // rows in one report); rows of the same (workload, size, device) are
  // replaced. Throws Error when an existing file has other columns.
  void write(const std::string& dir) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// "edpbench 0.1.0"
EDPBENCH_API std::string version();

}  // namespace edpbench
