// Sampler thread (see sampler.h).
#include "power/sampler.h"

#include "power/frozen.h"

#include <pthread.h>
#include <sched.h>
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <limits>

#include "common/errors.h"
#include "power/clock.h"
#include "power/update_interval.h"

namespace edp::power {
namespace {

double thread_cpu_s(clockid_t clock) {
  timespec ts{};
  if (clock_gettime(clock, &ts) != 0) return 0;
  return static_cast<double>(ts.tv_sec) + ts.tv_nsec * 1e-9;
}

}  // namespace

Sampler::Sampler(std::vector<Sensor*> sensors, double rate_hz, int cpu, size_t history_ticks)
    : sensors_(std::move(sensors)), cpu_(cpu), history_(history_ticks < 2 ? 2 : history_ticks) {
  if (!(rate_hz > 0) || rate_hz > 100000)
    throw UsageError("power.rate_hz must be in (0, 100000], got " + std::to_string(rate_hz));
  period_s_ = 1.0 / rate_hz;
  for (size_t s = 0; s < sensors_.size(); ++s) {
    offsets_.push_back(rails_.size());
    for (const auto& r : sensors_[s]->rails())
      rails_.push_back({s, sensors_[s]->name(), r.rail, r.kind, r});
  }
  // Two sources may use the same rail name; keep names unique by prefixing
  // the later one's source ("nvml:gpu0").
  for (size_t i = 0; i < rails_.size(); ++i)
    for (size_t j = 0; j < i; ++j)
      if (rails_[j].rail == rails_[i].rail)
        rails_[i].rail = rails_[i].sensor_name + ":" + rails_[i].rail;
  current_.assign(rails_.size(), 0.0);
  changes_.assign(rails_.size(), ChangeTracker{});
  running_energy_.assign(rails_.size(), RunningEnergy{});
  total_.assign(rails_.size(), true);
  anomalies_.assign(sensors_.size(), 0);
  anomaly_.assign(sensors_.size(), std::string());
  for (size_t s = 0; s < sensors_.size(); ++s) anomalies_[s] = sensors_[s]->anomalies();
  ring_t_.assign(history_, 0.0);
  ring_values_.assign(history_ * rails_.size(), 0.0);
}

Sampler::~Sampler() { stop(); }

void Sampler::start() {
  std::unique_lock<std::mutex> lock(mutex_);
  if (thread_.joinable() || rails_.empty()) return;  // nothing to read: no thread
  stop_ = false;
  running_ = true;
  // The power between the last tick before a stop and the first after this
  // start was never read: the running counters do not bridge it. Counters
  // do (the hardware kept counting).
  for (size_t r = 0; r < rails_.size(); ++r)
    if (rails_[r].kind == ValueKind::power_w) running_energy_[r].have = false;
  const size_t before = ticks_;
  start_s_ = now_s();
  thread_ = std::thread([this] { run(); });
  tick_cv_.wait(lock, [&] { return ticks_ > before; });
}

void Sampler::stop() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!thread_.joinable()) return;
    stop_ = true;
  }
  wake_cv_.notify_all();
  thread_.join();
}

std::string Sampler::pin_error() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return pin_error_;
}

void Sampler::run() {
  // A name of our own, so that the interference probe (platform/cpu_activity)
  // can leave the sampler out of the workload's threads (15 chars at most).
  (void)pthread_setname_np(pthread_self(), kSamplerThreadName);
  if (cpu_ >= 0) {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu_, &set);
    const int rc = pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
    if (rc != 0) {
      std::lock_guard<std::mutex> lock(mutex_);
      pin_error_ =
          "cannot pin the sampler to CPU " + std::to_string(cpu_) + ": " + std::strerror(rc);
    }
  }
  using clock = std::chrono::steady_clock;
  const auto period =
      std::chrono::duration_cast<clock::duration>(std::chrono::duration<double>(period_s_));
  auto deadline = clock::now();
  std::string error, sensor_error;
  error.reserve(256);
  sensor_error.reserve(256);
  bool extra = false;  // this tick was asked for by end_window between deadlines
  for (;;) {
    const double ta = now_s();
    size_t failed = 0;
    error.clear();
    for (size_t s = 0; s < sensors_.size(); ++s) {
      sensor_error.clear();
      const size_t f = sensors_[s]->read(current_.data() + offsets_[s], &sensor_error);
      if (f > 0 && failed == 0) error = sensor_error;
      failed += f;
    }
    const double tb = now_s();
    const double t = (ta + tb) / 2;  // a read's time is the middle of its span

    std::unique_lock<std::mutex> lock(mutex_);
    for (size_t s = 0; s < sensors_.size(); ++s) {
      const size_t a = sensors_[s]->anomalies();
      if (a != anomalies_[s]) {
        anomalies_[s] = a;
        anomaly_[s] = sensors_[s]->last_anomaly();
      }
    }
    tick(t, failed, error);
    lock.unlock();
    tick_cv_.notify_all();

    size_t missed = 0;
    if (!extra) {
      deadline += period;
      const auto now = clock::now();
      while (deadline <= now) {
        deadline += period;
        ++missed;
      }
    }
    // Deadlines the reads alone used up: the reads took that many whole
    // periods, whenever the thread started them.
    const auto in_reads = static_cast<size_t>((tb - ta) / period_s_);
    lock.lock();
    missed_ += missed;
    slow_read_missed_ += std::min(missed, in_reads);
    wake_cv_.wait_until(lock, deadline, [&] { return stop_ || tick_now_; });
    if (stop_) break;
    // An extra tick keeps the schedule: the next deadline stays where it was.
    extra = tick_now_ && clock::now() < deadline;
    tick_now_ = false;
  }
  {
    std::lock_guard<std::mutex> guard(mutex_);
    stop_s_ = now_s();
    final_cpu_s_ = thread_cpu_s(CLOCK_THREAD_CPUTIME_ID);
    running_ = false;
  }
  tick_cv_.notify_all();
}

void Sampler::tick(double t, size_t failed, const std::string& error) {
  const size_t n = rails_.size();
  ring_t_[ring_head_] = t;
  for (size_t r = 0; r < n; ++r) ring_values_[ring_head_ * n + r] = current_[r];
  ring_head_ = (ring_head_ + 1) % history_;
  if (ring_count_ < history_) ++ring_count_;
  ++ticks_;
  failures_ += failed;
  for (size_t r = 0; r < n; ++r) {
    const double v = current_[r];
    if (std::isnan(v)) continue;
    ChangeTracker& c = changes_[r];
    if (c.have_value && v != c.value) {
      // The update happened between the two reads.
      c.last_change_s = (c.last_t + t) / 2;
      c.ring[c.changes % ChangeTracker::kRing] = c.last_change_s;
      ++c.changes;
    }
    c.value = v;
    c.last_t = t;
    c.have_value = true;
  }
  accumulate(t);

  for (auto& [name, w] : windows_) {
    if (w.done) continue;
    for (size_t r = 0; r < n; ++r) {
      w.integrators[r].add(t, current_[r]);
      if (w.correctors[r]) w.correctors[r]->add(t, current_[r]);
    }
    if (t >= w.t0 && t <= w.t1) ++w.ticks;
    // Failures count inside the window, and after t1 for a rail whose window
    // is not closed yet: the read that should cover its trailing edge failed,
    // so a power rail is held from its last valid reading and a counter rail
    // has no end at all until a later read (a counter read failing just
    // after t1 lost up to a third of a short window's energy, unflagged).
    // After that (the lag correction's tail) a failed read is bridged like
    // any other and shows in the largest gap.
    if (failed > 0 && t >= w.t0) {
      size_t counted = 0;
      for (size_t r = 0; r < n; ++r)
        if (std::isnan(current_[r]) && (t <= w.t1 || !w.integrators[r].closed())) {
          ++w.rail_failures[r];
          ++counted;
        }
      w.failures += counted;
      if (counted > 0 && w.error.empty()) w.error = error;
    }
    // Averaging total rails keep the window open until their lag correction
    // has what it needs.
    if (w.ending && t >= w.t1 && window_resolved(w, t)) w.done = true;
    // The closing tick is kept whatever the decimation: the timeline ends
    // where the window's readings end.
    if (w.keep_timeline) w.timeline.add(t, current_.data(), n, period_s_ / 2, w.done);
  }
}

// Constant work per rail: a trapezoid (or a counter's increment) added to
// the running total.
void Sampler::accumulate(double t) {
  // A counter's power is its slope over at least this long: NVML's counter
  // moves less often than the sampler reads it.
  constexpr double kCounterSlopeS = 0.5;
  for (size_t r = 0; r < rails_.size(); ++r) {
    RunningEnergy& e = running_energy_[r];
    const double v = current_[r];
    if (std::isnan(v)) {
      ++e.failures;  // bridged by the next valid reading, as in a window
      continue;
    }
    if (rails_[r].kind == ValueKind::power_w) {
      if (e.have) {
        const double segment_j = (t - e.t) * (v + e.v) / 2;
        if (segment_j > 0) e.energy_j += segment_j;  // never decreasing
      }
      e.power_w = v;
      e.have = true;
      e.t = t;
      e.v = v;
    } else {
      if (!e.have) {
        e.have = true;
        e.t = t;
        e.v = v;
      } else if (t - e.t >= kCounterSlopeS || v < e.v) {
        const double step_j = v - e.v;
        if (step_j > 0) e.energy_j += step_j;
        if (t > e.t) e.power_w = std::max(0.0, step_j) / (t - e.t);
        e.t = t;
        e.v = v;
      }
    }
  }
}

void Sampler::TimelineBuffer::add(double t_s, const double* v, size_t n, double tolerance_s,
                                  bool force) {
  if (!force && count > 0 && t_s - last_t < spacing_s - tolerance_s) return;
  const size_t capacity = t.size();
  if (capacity == 0) return;
  if (count == capacity) {
    // Full: every other point goes, the spacing doubles; memory stays put.
    size_t kept = 0;
    for (size_t i = 0; i < count; i += 2, ++kept) {
      t[kept] = t[i];
      std::copy(values.begin() + static_cast<std::ptrdiff_t>(i * n),
                values.begin() + static_cast<std::ptrdiff_t>((i + 1) * n),
                values.begin() + static_cast<std::ptrdiff_t>(kept * n));
    }
    count = kept;
    spacing_s *= 2;
    last_t = t[count - 1];
    if (!force && t_s - last_t < spacing_s - tolerance_s) return;
  }
  t[count] = t_s;
  std::copy(v, v + n, values.begin() + static_cast<std::ptrdiff_t>(count * n));
  ++count;
  last_t = t_s;
}

Timeline Sampler::build_timeline(const Window& w) const {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const TimelineBuffer& b = w.timeline;
  const size_t n = rails_.size(), count = b.count;
  Timeline tl;
  tl.spacing_s = b.spacing_s;
  tl.t_s.resize(count);
  for (size_t i = 0; i < count; ++i) tl.t_s[i] = b.t[i] - w.t0;
  tl.power_w.assign(n, std::vector<double>(count, nan));
  tl.corrected_w.assign(n, std::vector<double>(count, nan));
  for (size_t r = 0; r < n; ++r) {
    std::vector<double>& raw = tl.power_w[r];
    if (rails_[r].kind == ValueKind::power_w) {
      for (size_t i = 0; i < count; ++i) raw[i] = b.values[i * n + r];
    } else {
      // A counter's power between two points: its increment over their gap.
      size_t prev = count;
      for (size_t i = 0; i < count; ++i) {
        const double e = b.values[i * n + r];
        if (std::isnan(e)) continue;
        if (prev < count && b.t[i] > b.t[prev])
          raw[i] = std::max(0.0, e - b.values[prev * n + r]) / (b.t[i] - b.t[prev]);
        prev = i;
      }
    }
    std::vector<double>& corrected = tl.corrected_w[r];
    if (!w.correctors[r]) {
      corrected = raw;
      continue;
    }
    // The value that describes t was published T later (lag_correction.h):
    // the reading at t + T, interpolated between the points around it.
    const double shift = w.correctors[r]->period_s();
    size_t j = 0;
    for (size_t i = 0; i < count; ++i) {
      const double target = b.t[i] + shift;
      while (j + 1 < count && b.t[j + 1] <= target) ++j;
      if (j + 1 >= count) {
        if (b.t[j] == target) corrected[i] = raw[j];
        continue;  // past the last point: not yet published
      }
      const double span = b.t[j + 1] - b.t[j];
      const double f = span > 0 ? (target - b.t[j]) / span : 0;
      corrected[i] = raw[j] + (raw[j + 1] - raw[j]) * f;
    }
  }
  return tl;
}

void Sampler::set_timeline_hz(double hz) {
  if (!(hz >= 0) || !std::isfinite(hz))
    throw UsageError("power.timeline_hz must be a positive number, got " + std::to_string(hz));
  std::lock_guard<std::mutex> lock(mutex_);
  timeline_hz_ = hz;
}

Counters Sampler::counters() const {
  std::lock_guard<std::mutex> lock(mutex_);
  Counters c;
  c.t_s = now_s();
  c.running = running_;
  c.ticks = ticks_;
  c.missed_deadlines = missed_;
  c.missed_in_slow_reads = slow_read_missed_;
  c.read_failures = failures_;
  if (thread_.joinable()) {
    clockid_t cid;
    if (pthread_getcpuclockid(const_cast<std::thread&>(thread_).native_handle(), &cid) == 0)
      c.sampler_cpu_s = thread_cpu_s(cid);
  } else {
    c.sampler_cpu_s = final_cpu_s_;
  }
  c.update_interval_s = observed_update_interval_locked();
  const double life_s = ticks_ > 0 ? c.t_s - start_s_ : 0;
  std::vector<FreezeEvidence> evidence(rails_.size());
  c.rails.reserve(rails_.size());
  bool total_power_known = true;
  double total_power_w = 0;
  for (size_t r = 0; r < rails_.size(); ++r) {
    const SamplerRail& sr = rails_[r];
    const RunningEnergy& e = running_energy_[r];
    RailCounter rc;
    rc.sensor = sr.sensor_name;
    rc.rail = sr.rail;
    rc.timing = sr.info.timing;
    rc.total = total_[r];
    rc.energy_j = e.energy_j;
    rc.power_w = e.power_w;
    rc.read_failures = e.failures;
    rc.update_interval_s = rail_interval_locked(r);
    if (sr.info.timing == Timing::averaging)
      rc.lag_s = sr.info.averaging_s > 0 ? sr.info.averaging_s : rc.update_interval_s;
    rc.through_s = changes_[r].have_value ? changes_[r].last_t - rc.lag_s : 0;
    // A rail whose reads have failed for a while has no power now: its last
    // value would go on being served as current (review: 1.929 W shown for
    // 15 s of failed reads). Stale when the latest read failed and the last
    // good one is older than 3 sampling periods or update intervals,
    // whichever is longer (a counter's slope spans up to 0.5 s more:
    // accumulate's kCounterSlopeS); a sampler that was merely late is not.
    if (changes_[r].have_value && std::isnan(current_[r])) {
      const double stale_s = 3 * std::max(period_s_, rc.update_interval_s) +
                             (sr.kind == ValueKind::energy_j ? 0.5 : 0.0);
      if (c.t_s - changes_[r].last_t > stale_s) rc.power_w = NAN;
    }
    // Frozen now (DESIGN §3): judged as a window over the last 3 expected
    // updates would be, per chip.
    FreezeEvidence& fe = evidence[r];
    fe.chip = sr.info.device.empty() ? "" : sr.sensor_name + "/" + sr.info.device;
    fe.counter = sr.kind == ValueKind::energy_j;
    const ChangeTracker& ch = changes_[r];
    if (sr.info.timing != Timing::instantaneous && ch.have_value) {
      double expected = rc.update_interval_s;
      if (expected == 0) expected = sensors_[sr.sensor]->reported_update_interval_s();
      fe.held_value = fe.counter ? rc.power_w : ch.value;
      if (expected > 0) {
        const double since_s = ch.changes > 0 ? c.t_s - ch.last_change_s : life_s;
        fe.moved = since_s < 3 * expected;
        fe.judged = life_s >= 3 * expected;
      } else {
        fe.moved = ch.changes > 0;
        fe.judged = ch.changes == 0 && life_s >= 2;
      }
    }
    if (rc.total) {
      c.energy_j += rc.energy_j;
      if (std::isnan(rc.power_w)) total_power_known = false;
      total_power_w += rc.power_w;
    }
    c.rails.push_back(std::move(rc));
  }
  const std::vector<bool> frozen = judge_frozen(evidence);
  for (size_t r = 0; r < rails_.size(); ++r) {
    c.rails[r].frozen = frozen[r];
    if (c.rails[r].total) c.frozen = c.frozen || frozen[r];
  }
  bool any_total = false;
  for (const auto& rc : c.rails) any_total |= rc.total;
  if (any_total && total_power_known) c.power_w = total_power_w;
  return c;
}

bool Sampler::window_resolved(const Window& w, double t) const {
  if (t >= w.wait_until) return true;
  for (size_t r = 0; r < rails_.size(); ++r)
    if (total_[r] && w.correctors[r] && !w.correctors[r]->resolved()) return false;
  return true;
}

double Sampler::rail_interval_locked(size_t r) const {
  const double own = own_interval_locked(r);
  if (own > 0 || rails_[r].info.device.empty()) return own;
  // A rail that rarely changes (an idle channel reading 0 W) has no interval
  // of its own; its chip converts every channel in one cycle, so the
  // interval of a sibling on the same device is its interval too.
  double sibling = 0;
  for (size_t q = 0; q < rails_.size(); ++q)
    if (q != r && rails_[q].sensor == rails_[r].sensor &&
        rails_[q].info.device == rails_[r].info.device)
      sibling = std::max(sibling, own_interval_locked(q));
  return sibling;
}

double Sampler::own_interval_locked(size_t r) const {
  const ChangeTracker& c = changes_[r];
  const size_t n = std::min(c.changes, ChangeTracker::kRing);
  if (n < 3) return 0;
  double times[ChangeTracker::kRing];
  for (size_t i = 0; i < n; ++i)
    times[i] = c.ring[(c.changes - n + i) % ChangeTracker::kRing];  // oldest first
  const double interval = robust_update_interval(times, n);
  // A sensor that updates faster than the sampler reads changes at every
  // tick: what was measured is the sampling period, not the sensor's.
  if (rails_[r].info.timing == Timing::averaging && interval < 1.5 * period_s_) return 0;
  return interval;
}

void Sampler::begin_window(const std::string& name, bool timeline) {
  start();
  std::lock_guard<std::mutex> lock(mutex_);
  if (windows_.count(name)) throw UsageError("energy window '" + name + "' is already open");
  // Allocate first and read the leading edge last, so the window starts as
  // close as it can to the caller's first instruction after this returns
  // (the runner starts its clock there, and a run can be microseconds).
  Window& w = windows_.emplace(name, Window{}).first->second;
  const size_t n = rails_.size();
  w.integrators.reserve(n);
  w.rail_failures.assign(n, 0);
  w.correctors.resize(n);
  w.keep_timeline = timeline && timeline_hz_ > 0 && n > 0;
  if (w.keep_timeline) {
    w.timeline.spacing_s = std::max(period_s_, 1 / timeline_hz_);
    w.timeline.t.assign(kTimelinePoints, 0.0);
    w.timeline.values.assign(kTimelinePoints * n, 0.0);
  }
  w.missed_at_begin = missed_;
  w.slow_missed_at_begin = slow_read_missed_;
  w.anomalies_at_begin = anomalies_;
  w.t0 = now_s();
  w.t0_unix = unix_now_s();
  for (size_t r = 0; r < n; ++r) {
    w.integrators.emplace_back(rails_[r].kind, w.t0);
    if (rails_[r].info.timing == Timing::averaging) {
      // The averaging period: stated by the sensor, else the update
      // interval measured so far (unknown before 3 updates: no correction).
      const double period =
          rails_[r].info.averaging_s > 0 ? rails_[r].info.averaging_s : rail_interval_locked(r);
      if (period > 0) w.correctors[r] = std::make_unique<LagCorrector>(w.t0, period);
    }
    // Leading edge: the latest valid reading of this rail before t0.
    for (size_t k = 1; k <= ring_count_; ++k) {
      const size_t idx = (ring_head_ + history_ - k) % history_;
      const double v = ring_values_[idx * n + r];
      if (!std::isnan(v)) {
        w.integrators[r].add(ring_t_[idx], v);
        if (w.correctors[r]) w.correctors[r]->add(ring_t_[idx], v);
        break;
      }
    }
  }
  if (w.keep_timeline)  // the pre-roll, oldest first
    for (size_t k = ring_count_; k >= 1; --k) {
      const size_t idx = (ring_head_ + history_ - k) % history_;
      if (ring_t_[idx] >= w.t0 - kTimelinePrerollS)
        w.timeline.add(ring_t_[idx], &ring_values_[idx * n], n, period_s_ / 2, false);
    }
}

void Sampler::cancel_window(const std::string& name) {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto it = windows_.find(name);
  if (it == windows_.end() || it->second.ending)
    throw UsageError("energy window '" + name + "' is not open");
  windows_.erase(it);
}

void Sampler::set_total_rails(const std::vector<std::string>& rails) {
  std::lock_guard<std::mutex> lock(mutex_);
  for (size_t r = 0; r < rails_.size(); ++r)
    total_[r] = std::find(rails.begin(), rails.end(), rails_[r].rail) != rails.end();
}

Measurement Sampler::end_window(const std::string& name, const std::function<void()>& at_end) {
  std::unique_lock<std::mutex> lock(mutex_);
  auto it = windows_.find(name);
  if (it == windows_.end()) throw UsageError("energy window '" + name + "' was never opened");
  Window& w = it->second;
  // The trailing edge, read under the lock: no tick can then add a reading
  // later than t1 before the integrators know where the window ends.
  const double t1 = now_s();
  const double t1_unix = unix_now_s();
  w.t1 = t1;
  w.ending = true;
  // The lag correction needs the updates that cover t1 (DESIGN §4.2): the
  // window stays open until they have arrived, at most 2.5 periods.
  double lag_wait_s = 0;
  for (size_t r = 0; r < rails_.size(); ++r) {
    w.integrators[r].set_end(t1);
    if (!w.correctors[r]) continue;
    w.correctors[r]->set_end(t1);
    if (total_[r]) lag_wait_s = std::max(lag_wait_s, w.correctors[r]->deadline_s() - t1);
  }
  w.wait_until = t1 + lag_wait_s;
  // Ask for a tick now rather than at the next deadline: the trailing edge is
  // then covered within one read, even at low sampling rates.
  tick_now_ = true;
  wake_cv_.notify_all();
  if (at_end) {
    // The window stays in windows_ meanwhile: only this call erases it, and
    // cancel_window refuses a window that is ending.
    lock.unlock();
    try {
      at_end();
    } catch (...) {
      lock.lock();
      windows_.erase(it);
      throw;
    }
    lock.lock();
  }
  // Wait for the ticks that cover t1 (bounded: a stalled sampler leaves the
  // window incomplete rather than hanging the caller).
  const auto limit = std::chrono::steady_clock::now() +
                     std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                         std::chrono::duration<double>(lag_wait_s + 3 * period_s_ + 0.5));
  tick_cv_.wait_until(lock, limit, [&] { return w.done || !running_; });

  Measurement m;
  m.t0_s = w.t0;
  m.t1_s = t1;
  m.t0_unix_s = w.t0_unix;
  m.t1_unix_s = t1_unix;
  m.read_failures = w.failures;
  m.missed_deadlines = missed_ - w.missed_at_begin;
  m.missed_in_slow_reads = slow_read_missed_ - w.slow_missed_at_begin;
  m.sampled_until_s = now_s();
  m.error = w.error;
  const double life_s = now_s() - start_s_;
  std::vector<FreezeEvidence> evidence(rails_.size());
  for (size_t r = 0; r < rails_.size(); ++r) {
    RailMeasurement rm = w.integrators[r].finish();
    rm.sensor = rails_[r].sensor_name;
    rm.rail = rails_[r].rail;
    rm.timing = rails_[r].info.timing;
    rm.read_failures = w.rail_failures[r];
    rm.energy_uncorrected_j = rm.energy_j;
    rm.update_interval_s = rail_interval_locked(r);
    if (w.correctors[r] && !std::isnan(rm.energy_j)) {
      rm.energy_j = w.correctors[r]->energy_j();
      rm.lag_correction_s = w.correctors[r]->period_s();
      rm.lag_edge_bounded = w.correctors[r]->edges_bounded();
      const double span = t1 - w.t0;
      if (span > 0) rm.power_w_mean = rm.energy_j / span;
    }
    const size_t sensor = rails_[r].sensor;
    rm.anomalies = anomalies_[sensor] - w.anomalies_at_begin[sensor];
    // Frozen (DESIGN §3): a held or counted value that did not move over a
    // window spanning 3 or more expected updates. A rail that has never
    // changed has no measured interval: after 2 s of sampling it is judged
    // too (a live monitor's last digit always moves). Instantaneous rails
    // (a trace) may legitimately be constant. Whether an unmoved rail is
    // frozen is decided per chip, below (power/frozen.h).
    FreezeEvidence& fe = evidence[r];
    fe.chip =
        rails_[r].info.device.empty() ? "" : rails_[r].sensor_name + "/" + rails_[r].info.device;
    fe.counter = rails_[r].kind == ValueKind::energy_j;
    if (rails_[r].info.timing != Timing::instantaneous && rm.samples > 0) {
      fe.moved = fe.counter ? rm.energy_uncorrected_j > 0 : rm.distinct_values > 1;
      const double span = t1 - w.t0;
      fe.held_value = span > 0 && !std::isnan(rm.energy_uncorrected_j)
                          ? rm.energy_uncorrected_j / span
                          : std::numeric_limits<double>::quiet_NaN();
      double expected = rm.update_interval_s;
      if (expected == 0) expected = sensors_[sensor]->reported_update_interval_s();
      if (!fe.moved)
        fe.judged =
            expected > 0 ? t1 - w.t0 >= 3 * expected : changes_[r].changes == 0 && life_s >= 2;
    }
    m.rails.push_back(std::move(rm));
  }
  const std::vector<bool> frozen = judge_frozen(evidence);
  for (size_t r = 0; r < rails_.size(); ++r) {
    RailMeasurement& rm = m.rails[r];
    const size_t sensor = rails_[r].sensor;
    rm.frozen = frozen[r];
    if (total_[r]) {
      m.update_interval_s = std::max(m.update_interval_s, rm.update_interval_s);
      m.lag_correction_s = std::max(m.lag_correction_s, rm.lag_correction_s);
      m.frozen = m.frozen || rm.frozen;
      if (rm.anomalies > 0 && m.anomaly.empty()) m.anomaly = anomaly_[sensor];
    }
    if (std::isnan(rm.energy_j)) m.complete = false;
  }
  for (size_t s = 0; s < sensors_.size(); ++s) {
    bool has_total = false;
    for (size_t r = 0; r < rails_.size(); ++r) has_total |= total_[r] && rails_[r].sensor == s;
    if (has_total) m.anomalies += anomalies_[s] - w.anomalies_at_begin[s];
  }
  m.samples = w.ticks;
  if (w.keep_timeline) m.timeline = build_timeline(w);
  if (rails_.empty()) w.done = true;  // source none: nothing to wait for
  if (m.read_failures > 0) m.complete = false;
  if (!w.done) {
    m.complete = false;
    if (m.error.empty()) m.error = "sampler: no reading after the end of window '" + name + "'";
  }
  windows_.erase(it);
  return m;
}

double Sampler::observed_update_interval_locked() const {
  double interval = 0;
  for (size_t r = 0; r < rails_.size(); ++r)
    if (total_[r]) interval = std::max(interval, rail_interval_locked(r));
  return interval;
}

double Sampler::observed_update_interval_s() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return observed_update_interval_locked();
}

bool Sampler::averaging_periods_known() const {
  std::lock_guard<std::mutex> lock(mutex_);
  for (size_t r = 0; r < rails_.size(); ++r)
    if (total_[r] && rails_[r].info.timing == Timing::averaging &&
        rails_[r].info.averaging_s <= 0 && rail_interval_locked(r) == 0)
      return false;
  return true;
}

Sampler::Stats Sampler::stats() const {
  std::lock_guard<std::mutex> lock(mutex_);
  Stats s;
  s.ticks = ticks_;
  s.missed_deadlines = missed_;
  s.missed_in_slow_reads = slow_read_missed_;
  s.read_failures = failures_;
  if (thread_.joinable()) {
    clockid_t cid;
    // const_cast: native_handle() is not const, but only reads the id.
    if (pthread_getcpuclockid(const_cast<std::thread&>(thread_).native_handle(), &cid) == 0)
      s.cpu_s = thread_cpu_s(cid);
    s.wall_s = now_s() - start_s_;
  } else {
    s.cpu_s = final_cpu_s_;
    s.wall_s = stop_s_ > start_s_ ? stop_s_ - start_s_ : 0;
  }
  return s;
}

}  // namespace edp::power
