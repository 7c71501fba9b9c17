// An unwrapped cumulative energy counter with a plausibility limit (DESIGN
// §4.2): RAPL's energy_uj, NVML's total energy. Raw readings are fed with the
// steady_clock time they were taken at; the counter keeps the joules since
// start() and refuses steps that no real load can produce.
//
// For each reading, the step from the last *accepted* raw value is judged
// against the energy the rail can plausibly have used since then:
//   allowed = max_power_w x (t - t_accepted + slack_s)
// slack_s covers the counter's own update granularity (RAPL updates every
// ~1 ms, so two reads 10 us apart can see a whole 1 ms quantum) and the delay
// between a read and its timestamp when the sampler thread is preempted.
//  - forward step <= allowed: energy.
//  - backward step, the counter wraps (max_range > 0) and the wrapped step
//    (max_range - previous + current) <= allowed: a genuine wraparound,
//    unwrapped exactly.
//  - backward step, the counter can reset (NVML after a driver reload or GPU
//    reset) and the new value itself is <= allowed, i.e. near zero: a reset.
//    The baseline restarts at the new value; nothing is added (the energy
//    between the last reading and the reset is unknown). Counted.
//  - anything else is a GLITCH: the reading is discarded and counted, the
//    previous raw value and time are kept, so one spurious read followed by
//    normal ones adds nothing. If the next reading is also refused but is a
//    plausible step from the refused one, the counter really moved to a new
//    level (an unannounced reset, a reload): the baseline restarts there,
//    adding nothing, and that is counted too. Energy is never inflated; at
//    worst the intervals around an anomaly are missing, and the run is
//    flagged through the anomaly count.
#pragma once

#include <cstddef>
#include <string>
#include <utility>

namespace edp::power {

struct CounterSpec {
  std::string rail;             // for messages: "package-0", "gpu0"
  const char* unit = "uJ";      // raw unit, for messages
  double unit_j = 1e-6;         // joules per raw unit
  double max_range = 0;         // the counter wraps from here to 0; 0 = never wraps
  double max_power_w = 0;       // plausibility limit; 0 = none (every step accepted)
  double slack_s = 0;           // added to the elapsed time, see above
  bool resets_to_zero = false;  // a backward step to near zero is a reset, not a glitch
};

class EnergyCounter {
 public:
  enum class Step { accepted, wrapped, glitch, reset, rebased };

  explicit EnergyCounter(CounterSpec spec) : spec_(std::move(spec)) {}

  // The baseline: joules() counts from here.
  void start(double raw, double t_s);
  // One reading taken at t_s (steady_clock seconds). Never throws.
  Step feed(double raw, double t_s) noexcept;

  // Joules accepted since start().
  double joules() const { return total_raw_ * spec_.unit_j; }
  // Glitches, resets and re-baselines since start(), and the latest one's text.
  size_t anomalies() const { return anomalies_; }
  const std::string& last_anomaly() const { return last_anomaly_; }
  const CounterSpec& spec() const { return spec_; }

 private:
  double allowed_raw(double dt_s) const;
  Step refuse(double raw, double t_s, const std::string& why) noexcept;

  CounterSpec spec_;
  double last_raw_ = 0, last_t_ = 0;  // last accepted reading
  double total_raw_ = 0;              // sum of accepted steps, raw units (exact integers)
  bool have_refused_ = false;
  double refused_raw_ = 0, refused_t_ = 0;  // the previous reading, when it was refused
  size_t anomalies_ = 0;
  std::string last_anomaly_;
};

}  // namespace edp::power
