// Who had the CPUs during a measurement window (DESIGN §3, "Interference").
//
// A benchmark on a shared machine measures its neighbours too: a run whose
// threads waited for a CPU is slower and, on a board, draws the neighbour's
// power as well. Two procfs sources tell it apart, read at the window's edges
// (outside the window, so the reads are not measured):
//   - /proc/self/task/TID/schedstat: "run_ns wait_ns timeslices" per thread
//     (Documentation/scheduler/sched-stats.rst, "/proc/<pid>/schedstat"):
//     the time the thread ran, and the time it was runnable but waited on a
//     run queue, in nanoseconds. Waiting on a run queue is exactly
//     "preempted"; a thread that sleeps (a team member with nothing to do)
//     does not wait there, so an idle worker does not look disturbed.
//   - /proc/stat's "cpu" line: the machine's busy and idle time in USER_HZ
//     ticks (proc(5)), so others' CPU use = busy - ours. Steal time (a VM's
//     host running someone else) counts as busy: our vCPU did not run us.
// A thread that ends inside the window leaves /proc/self/task and takes its
// times with it: the workload's threads (a backend's team) outlive windows.
// Nothing read here is trusted: malformed text gives "unknown", never a throw.
#pragma once

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "platform/sysfs.h"

namespace edp::platform {

// The aggregate "cpu" line of /proc/stat, in USER_HZ ticks.
struct MachineCpuTicks {
  uint64_t busy = 0;   // user nice system irq softirq steal (guest is inside user)
  uint64_t total = 0;  // busy + idle + iowait
  int cpus = 0;        // "cpuN" lines: the CPUs the counters cover
};
std::optional<MachineCpuTicks> parse_proc_stat(const std::string& text);

struct SchedStat {
  uint64_t run_ns = 0, wait_ns = 0, timeslices = 0;
};
std::optional<SchedStat> parse_schedstat(const std::string& text);

struct ThreadSched {
  long tid = 0;
  SchedStat sched;
};

// This process's CPU activity at one instant.
struct ActivitySnapshot {
  double monotonic_s = NAN;
  std::optional<MachineCpuTicks> machine;
  std::vector<ThreadSched> threads;  // sorted by tid; the excluded thread left out
  bool schedstat_available = false;
  double process_cpu_s = NAN;   // CLOCK_PROCESS_CPUTIME_ID: every thread of ours
  double children_cpu_s = NAN;  // RUSAGE_CHILDREN: reaped children (measure -- CMD)
};

// What the window's span saw. NaN where the source is missing.
struct Interference {
  double wall_s = NAN;
  double workload_cpu_s = NAN;    // run time of the workload's threads
  double runqueue_wait_s = NAN;   // time they were runnable but had no CPU
  double cpu_share = NAN;         // workload_cpu_s / (wall_s x threads)
  double preempted_share = NAN;   // runqueue_wait_s / (wall_s x threads)
  double others_cpu_share = NAN;  // others' CPU time / (wall_s x CPUs): 0 idle, 1 all busy
};

// Reads snapshots of this process. `exclude_comm` names a thread to leave
// out of the workload's threads (the sampler: power/sampler.h).
class ActivityProbe {
 public:
  explicit ActivityProbe(SysfsRoot root = SysfsRoot(""), std::string exclude_comm = "edp-sampler");
  ActivitySnapshot snapshot() const;
  double ticks_per_s() const { return ticks_per_s_; }

 private:
  SysfsRoot root_;
  std::string exclude_comm_;
  double ticks_per_s_;
};

// The interference between two snapshots of one window. `threads` is the
// number of threads the workload runs (a CPU device's team, 1 for a GPU's
// host thread); threads that appear only in `end` (started inside the
// window) count from zero. `busy_span_s` is the span the workload ran in
// (the energy window): the snapshots also bracket the waits around it
// (begin_window's wait for the sampler's lock; bench::RunWindow takes the
// second one before end_window's wait for the lag correction), which would
// dilute the shares; NaN (or a span longer than the snapshots') uses the
// snapshots' own span.
Interference interference_between(const ActivitySnapshot& begin, const ActivitySnapshot& end,
                                  int threads, double ticks_per_s, double busy_span_s = NAN);

// The threads of `end` that ran for at least `share` of `span_s` since
// `begin`: the workload's threads when the caller does not know how many it
// runs (the monitor in a user's program, whose framework starts a pool of its
// own). A pool member that sleeps, or only yields (an idle BLAS pool thread
// on a busy machine waits on a run queue yet hardly runs), is not counted, so
// it does not dilute the team's shares. A thread starved below the share is
// not counted either; its wait still counts in the team's wait, so
// preempted_share errs high, towards `disturbed`. 0 without schedstat.
inline constexpr double kBusyThreadShare = 0.1;
int busy_threads(const ActivitySnapshot& begin, const ActivitySnapshot& end, double span_s,
                 double share = kBusyThreadShare);

}  // namespace edp::platform
