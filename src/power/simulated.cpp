// The simulated source (see simulated.h).
#include "power/simulated.h"

#include <time.h>

#include <cmath>

#include "common/errors.h"
#include "common/text.h"
#include "power/clock.h"

namespace edp::power {
namespace {

double cpu_clock_s(clockid_t id) {
  timespec ts{};
  if (clock_gettime(id, &ts) != 0) return NAN;
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

}  // namespace

SimulatedSensor::Clocks SimulatedSensor::system_clocks() {
  return {now_s, [] { return cpu_clock_s(CLOCK_PROCESS_CPUTIME_ID); },
          [] { return cpu_clock_s(CLOCK_THREAD_CPUTIME_ID); }};
}

SimulatedSensor::SimulatedSensor(SimulatedOptions options, Clocks clocks)
    : options_(options), clocks_(std::move(clocks)) {
  rails_.emplace_back("SIM_IN", ValueKind::energy_j, Timing::counter);
}

size_t SimulatedSensor::read(double* values, std::string* error) noexcept {
  const double now = clocks_.now_s();
  const double process = clocks_.process_cpu_s();
  const double thread = clocks_.thread_cpu_s();
  if (!std::isfinite(now) || !std::isfinite(process) || !std::isfinite(thread)) {
    values[0] = NAN;
    if (error) *error = "simulated: a CPU clock could not be read";
    return 1;
  }
  std::lock_guard<std::mutex> lock(mutex_);
  if (!started_) {
    started_ = true;
    last_s_ = last_busy_s_ = now;
    last_process_s_ = process;
    last_thread_s_ = thread;
    values[0] = energy_j_;
    return 0;
  }
  // The reader's own CPU time is not work. A different reading thread (the
  // sensors command after the sampler) has no previous value: its whole
  // interval's CPU time counts as work once, a bounded error.
  double thread_delta = thread - last_thread_s_;
  if (thread_delta < 0) thread_delta = 0;
  const double work_s = std::max(0.0, (process - last_process_s_) - thread_delta);
  const double dt_s = std::max(0.0, now - last_s_);
  const bool busy = work_s > options_.busy_cpu_s;
  double base_j;
  if (asleep_) {
    base_j = options_.sleep_w * dt_s;
  } else if (options_.sleep_after_s > 0 && !busy && now - last_busy_s_ >= options_.sleep_after_s) {
    // Asleep from sleep_after_s after the last busy read on.
    const double falls_s = std::max(last_s_, last_busy_s_ + options_.sleep_after_s);
    base_j = options_.idle_w * (falls_s - last_s_) + options_.sleep_w * (now - falls_s);
    asleep_ = true;
  } else {
    base_j = options_.idle_w * dt_s;
  }
  energy_j_ += base_j + options_.cpu_w * work_s;
  if (busy) {
    if (asleep_) {
      energy_j_ += options_.wake_j;
      ++wakes_;
      asleep_ = false;
    }
    last_busy_s_ = now;
  }
  last_s_ = now;
  last_process_s_ = process;
  last_thread_s_ = thread;
  values[0] = energy_j_;
  return 0;
}

long SimulatedSensor::wakes() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return wakes_;
}

std::string SimulatedSensor::describe() const {
  const SimulatedOptions& o = options_;
  std::string s = "idle " + fmt("%g", o.idle_w) + " W, " + fmt("%g", o.cpu_w) +
                  " W per busy CPU of this process's work";
  if (o.sleep_after_s > 0)
    s += ", asleep at " + fmt("%g", o.sleep_w) + " W after " + fmt("%g", o.sleep_after_s) +
         " s idle, " + fmt("%g", o.wake_j) + " J to wake";
  else
    s += ", never asleep";
  return s + "; busy above " + fmt("%g", o.busy_cpu_s * 1e6) + " us of CPU per read";
}

std::unique_ptr<SimulatedSensor> open_simulated(const SimulatedOptions& o,
                                                std::vector<std::string>* log) {
  const auto check = [](const char* key, double v, double lo, double hi) {
    if (!(v >= lo && v <= hi))
      throw UsageError("power.simulated." + std::string(key) + " = " + fmt("%g", v) +
                       " is out of range [" + fmt("%g", lo) + ", " + fmt("%g", hi) + "]");
  };
  check("idle_w", o.idle_w, 0, 1e4);
  check("cpu_w", o.cpu_w, 0, 1e4);
  check("sleep_after_s", o.sleep_after_s, 0, 3600);
  check("sleep_w", o.sleep_w, 0, 1e4);
  check("wake_j", o.wake_j, 0, 1e4);
  check("busy_cpu_s", o.busy_cpu_s, 1e-6, 1);
  if (o.sleep_w > o.idle_w)
    throw UsageError("power.simulated.sleep_w = " + fmt("%g", o.sleep_w) +
                     " is above idle_w = " + fmt("%g", o.idle_w) +
                     ": a simulated sleep that costs more than idling is not a sleep");
  auto sensor = std::make_unique<SimulatedSensor>(o);
  if (log)
    log->push_back("simulated: SIM_IN, an energy counter that follows this process's CPU time (" +
                   sensor->describe() +
                   "); a test and demo source with a known answer, not a measurement");
  return sensor;
}

}  // namespace edp::power
