// See cpu_activity.h.
#include "platform/cpu_activity.h"

#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <sstream>

namespace edp::platform {
namespace {

// A whole non-negative decimal number, or nullopt (no sign, no junk).
std::optional<uint64_t> parse_u64(const std::string& s) {
  if (s.empty() || s.size() > 20) return std::nullopt;
  uint64_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    const uint64_t d = static_cast<uint64_t>(c - '0');
    if (v > (UINT64_MAX - d) / 10) return std::nullopt;
    v = v * 10 + d;
  }
  return v;
}

double seconds(const timespec& ts) { return static_cast<double>(ts.tv_sec) + ts.tv_nsec * 1e-9; }

double clock_s(clockid_t id) {
  timespec ts{};
  if (::clock_gettime(id, &ts) != 0) return NAN;
  return seconds(ts);
}

}  // namespace

std::optional<MachineCpuTicks> parse_proc_stat(const std::string& text) {
  std::istringstream in(text);
  std::string line;
  std::optional<MachineCpuTicks> out;
  int cpus = 0;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string name;
    fields >> name;
    if (name == "cpu") {
      // user nice system idle iowait irq softirq steal [guest guest_nice]
      // (proc(5)); guest time is already inside user and nice.
      std::vector<uint64_t> v;
      std::string f;
      while (fields >> f && v.size() < 10) {
        const auto n = parse_u64(f);
        if (!n) return std::nullopt;
        v.push_back(*n);
      }
      if (v.size() < 4) return std::nullopt;
      v.resize(8, 0);
      MachineCpuTicks t;
      t.busy = v[0] + v[1] + v[2] + v[5] + v[6] + v[7];
      t.total = t.busy + v[3] + v[4];
      out = t;
    } else if (name.size() > 3 && name.compare(0, 3, "cpu") == 0 &&
               std::all_of(name.begin() + 3, name.end(),
                           [](char c) { return std::isdigit(static_cast<unsigned char>(c)); })) {
      ++cpus;
    }
  }
  if (!out || cpus == 0) return std::nullopt;
  out->cpus = cpus;
  return out;
}

std::optional<SchedStat> parse_schedstat(const std::string& text) {
  std::istringstream in(text);
  std::string a, b, c, extra;
  if (!(in >> a >> b >> c) || (in >> extra)) return std::nullopt;
  const auto run = parse_u64(a), wait = parse_u64(b), slices = parse_u64(c);
  if (!run || !wait || !slices) return std::nullopt;
  return SchedStat{*run, *wait, *slices};
}

ActivityProbe::ActivityProbe(SysfsRoot root, std::string exclude_comm)
    : root_(std::move(root)), exclude_comm_(std::move(exclude_comm)) {
  const long hz = ::sysconf(_SC_CLK_TCK);
  ticks_per_s_ = hz > 0 ? static_cast<double>(hz) : 100.0;
}

ActivitySnapshot ActivityProbe::snapshot() const {
  ActivitySnapshot s;
  s.process_cpu_s = clock_s(CLOCK_PROCESS_CPUTIME_ID);
  rusage ru{};
  if (::getrusage(RUSAGE_CHILDREN, &ru) == 0)
    s.children_cpu_s = static_cast<double>(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
                       (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e-6;
  for (const auto& name : root_.list("/proc/self/task")) {
    const auto tid = parse_u64(name);
    if (!tid) continue;
    const std::string dir = "/proc/self/task/" + name;
    if (!exclude_comm_.empty() && root_.read_line(dir + "/comm") == exclude_comm_) continue;
    const auto text = root_.read(dir + "/schedstat");
    if (!text) continue;  // the thread ended between list and read, or no schedstat
    if (const auto st = parse_schedstat(*text)) {
      s.threads.push_back({static_cast<long>(*tid), *st});
      s.schedstat_available = true;
    }
  }
  std::sort(s.threads.begin(), s.threads.end(),
            [](const ThreadSched& x, const ThreadSched& y) { return x.tid < y.tid; });
  if (const auto text = root_.read("/proc/stat")) s.machine = parse_proc_stat(*text);
  // Last, so that the span covers every read above on both edges alike.
  s.monotonic_s = clock_s(CLOCK_MONOTONIC);
  return s;
}

namespace {

// What thread `t` of `end` did since `begin`: a thread that started inside
// the window counts from zero, and so does a counter that went backwards (a
// recycled TID).
SchedStat sched_delta(const ActivitySnapshot& begin, const ThreadSched& t) {
  const auto it = std::lower_bound(begin.threads.begin(), begin.threads.end(), t.tid,
                                   [](const ThreadSched& x, long tid) { return x.tid < tid; });
  const bool had = it != begin.threads.end() && it->tid == t.tid;
  const SchedStat b = had ? it->sched : SchedStat{};
  if (t.sched.run_ns < b.run_ns || t.sched.wait_ns < b.wait_ns) return t.sched;
  return {t.sched.run_ns - b.run_ns, t.sched.wait_ns - b.wait_ns,
          t.sched.timeslices >= b.timeslices ? t.sched.timeslices - b.timeslices : 0};
}

}  // namespace

int busy_threads(const ActivitySnapshot& begin, const ActivitySnapshot& end, double span_s,
                 double share) {
  if (!(begin.schedstat_available && end.schedstat_available) || !(span_s > 0)) return 0;
  int n = 0;
  for (const auto& t : end.threads) {
    const SchedStat d = sched_delta(begin, t);
    if (d.run_ns * 1e-9 >= share * span_s) ++n;
  }
  return n;
}

Interference interference_between(const ActivitySnapshot& begin, const ActivitySnapshot& end,
                                  int threads, double ticks_per_s, double busy_span_s) {
  Interference r;
  const double snapshots_s = end.monotonic_s - begin.monotonic_s;
  r.wall_s = snapshots_s;
  if (!(r.wall_s > 0)) return r;
  if (busy_span_s > 0 && busy_span_s < r.wall_s) r.wall_s = busy_span_s;
  if (begin.schedstat_available && end.schedstat_available) {
    uint64_t run_ns = 0, wait_ns = 0;
    for (const auto& t : end.threads) {
      const SchedStat d = sched_delta(begin, t);
      run_ns += d.run_ns;
      wait_ns += d.wait_ns;
    }
    // Counters that never moved while this process used CPU time are a
    // kernel printing "0 0 0" (sched_info off: fs/proc/base.c,
    // proc_pid_schedstat): unknown, not a run that was never held off.
    const double process_s = end.process_cpu_s - begin.process_cpu_s;
    const bool counting = !(run_ns == 0 && std::isfinite(process_s) && process_s > 0.01);
    if (counting) {
      r.workload_cpu_s = run_ns * 1e-9;
      r.runqueue_wait_s = wait_ns * 1e-9;
      if (threads > 0) {
        // The counters cover the snapshots' span. When they hold more run
        // and wait time than the busy span has (threads x span), part of it
        // lies outside the window: a window of a few milliseconds beside a
        // snapshot of a millisecond read cpu_share 1.2 and preempted_share
        // 7.7. The snapshots' span is then the only one they describe.
        if (r.workload_cpu_s + r.runqueue_wait_s > r.wall_s * threads * 1.01)
          r.wall_s = snapshots_s;
        // A share is a fraction of the window (more threads running than
        // `threads` says would still exceed 1).
        r.cpu_share = std::min(1.0, r.workload_cpu_s / (r.wall_s * threads));
        r.preempted_share = std::min(1.0, r.runqueue_wait_s / (r.wall_s * threads));
      }
    }
  }
  if (begin.machine && end.machine && end.machine->cpus > 0 && ticks_per_s > 0 &&
      end.machine->busy >= begin.machine->busy) {
    const double busy_s = (end.machine->busy - begin.machine->busy) / ticks_per_s;
    double ours_s = end.process_cpu_s - begin.process_cpu_s;
    if (std::isfinite(end.children_cpu_s - begin.children_cpu_s))
      ours_s += end.children_cpu_s - begin.children_cpu_s;
    if (!std::isfinite(ours_s)) ours_s = 0;
    // Ticks are coarse (10 ms at USER_HZ 100): clamp the rounding into [0, 1].
    // Others' time and the machine's counters cover the snapshots' span.
    const double others = std::max(0.0, busy_s - ours_s) / (snapshots_s * end.machine->cpus);
    r.others_cpu_share = std::min(1.0, others);
  }
  return r;
}

}  // namespace edp::platform
