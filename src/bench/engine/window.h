// One window of DESIGN §3: begin, body, end, judged. This is the one
// definition of a run's time, energy and evidence that every client uses
// (`run`'s protocol, `measure -- CMD`): with a meter, a run's time is the
// energy window's own span, so time, energy, power, EDP and dynamic energy
// describe one interval; without one, the window's own steady clock. The
// window also reads who had the CPUs around it (interference) when asked.
// What it finds goes into a report::RunRecord, whose evidence fields the
// writers read by name (report/results_csv.cpp's runs.csv schema): a new
// kind of evidence is a RunRecord field, filled here, and one schema entry.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "platform/cpu_activity.h"
#include "power/energy_meter.h"
#include "report/records.h"

namespace edp::bench {

// What judging a window needs besides the Measurement.
struct WindowJudging {
  std::vector<std::string> total_rails;  // the rails whose sum is "energy"
  double baseline_total_w = NAN;         // idle power of the total rails; NaN: no dynamic energy
  double rate_hz = 0;                    // the sampler's rate, for its missed deadlines
  // The update interval the sensors state (the driver's, a config
  // register's, a trace's row spacing; Session::stated_update_interval_s):
  // a window is judged by it while the sampler has not observed one, so
  // that the first window is judged as the later ones are (DESIGN §3).
  double stated_update_interval_s = 0;
  // What a too-short window's note advises (Session::advise_short_windows).
  std::string short_window_advice = "raise power.min_run_s or use auto";
  // The workload's threads, for the interference shares; 0 when the work
  // runs in another process (a command): then only others' CPU share and the
  // sampler's deadlines are judged, and cpu_share/preempted_share stay empty.
  int threads = 1;
  int cpus = 0;  // the CPUs they are pinned to (0: unknown): more threads wait for one another
  // Count the workload's threads instead: those of this process (the sampler
  // left out) that wanted a CPU for at least platform::kBusyThreadShare of the
  // window (the monitor in a user's program, where a framework runs a pool of
  // its own). `threads` is ignored then.
  bool count_busy_threads = false;
};

class RunWindow {
 public:
  // Opens the meter's window `name` (when the meter measures energy) and
  // starts the clock once it is open (begin_window may wait for the
  // sampler's lock, or start its thread). probe_activity: snapshot the
  // interference probe (platform/cpu_activity.h) before and after, outside
  // the window, so its procfs reads are neither timed nor integrated.
  RunWindow(power::EnergyMeter& meter, std::string name, bool probe_activity);
  // Ends an open window (the body threw): the sampler must not keep
  // integrating it.
  ~RunWindow();
  RunWindow(const RunWindow&) = delete;
  RunWindow& operator=(const RunWindow&) = delete;

  // Steady-clock seconds since the window opened (for min_run_s blocks).
  double elapsed_s() const;

  // Ends the window and fills r: time_s (per block), the window's edges on
  // both clocks, energy, power, EDP, dynamic energy, per-rail energy, the
  // sensor evidence and flags (run_evidence.h), and the interference shares
  // and `disturbed`. Returns why the energy cannot be trusted ("" when it
  // can); the energy columns stay NaN then. Call once.
  std::string close(const WindowJudging& judging, int blocks, report::RunRecord& r);

  // Drops the window unjudged (the monitor's cancel_window): the sampler
  // stops integrating it, nothing is measured or waited for.
  void cancel();

  // The span the run's time came from (valid after close).
  double span_s() const { return span_s_; }
  // The meter's measurement of the window (per-rail detail; valid after
  // close, empty when the meter measures no energy).
  const power::Measurement& measurement() const { return m_; }
  // The threads the interference shares were judged over (after close; 0
  // when not probed or counted none).
  int threads_judged() const { return threads_judged_; }

 private:
  power::EnergyMeter& meter_;
  std::string name_;
  bool open_ = false;
  bool probe_activity_;
  platform::ActivitySnapshot busy_before_;
  double unix0_s_ = 0, mono0_s_ = 0;
  double span_s_ = 0;
  power::Measurement m_;
  int threads_judged_ = 0;
};

}  // namespace edp::bench
