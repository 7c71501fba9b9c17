// A simulated power source whose power follows this process's work: a test
// and demo source with a known answer (power.source: simulated; `auto` never
// picks it). Its one rail, SIM_IN, is an energy counter:
//
//   energy = idle_w x (time awake) + sleep_w x (time asleep)
//          + cpu_w x (CPU time of the process's work) + wake_j x (wakes)
//
// The work is the process's CPU time (CLOCK_PROCESS_CPUTIME_ID) less that of
// the thread that reads the sensor (the sampler), so that reading it is not
// work. A read interval in which the work used more than busy_cpu_s of CPU
// is busy; after sleep_after_s without a busy interval the simulated machine
// sleeps (at sleep_w instead of idle_w), and the next busy interval wakes it
// and pays wake_j: an idle state and a wake cost like a GPU's rail-gating
// (docs/deploy.md). The sensor resolves time only to its read interval (the
// sampler's period), so a sleep begins up to one period after sleep_after_s;
// and work that uses less than busy_cpu_s per read interval (a burst of a
// few microseconds) neither wakes nor keeps awake the simulated machine.
//
// Unlike a trace replayed by the clock, it answers what a run really did:
// the deploy study's model is checked against it (docs/deploy.md). It is not
// a model of any real machine's power.
#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "power/options.h"
#include "power/sensor.h"

namespace edp::power {

class SimulatedSensor final : public Sensor {
 public:
  // What the sensor reads the time from: steady seconds, the process's CPU
  // seconds, and the calling thread's CPU seconds (tests inject their own).
  struct Clocks {
    std::function<double()> now_s, process_cpu_s, thread_cpu_s;
  };
  static Clocks system_clocks();

  explicit SimulatedSensor(SimulatedOptions options, Clocks clocks = system_clocks());

  std::string name() const override { return "simulated"; }
  const std::vector<RailInfo>& rails() const override { return rails_; }
  size_t read(double* values, std::string* error) noexcept override;

  // Wakes from the simulated sleep so far.
  long wakes() const;
  // "idle 2 W, 4 W per busy CPU, ..." for the discovery log and context.json.
  std::string describe() const;

 private:
  SimulatedOptions options_;
  Clocks clocks_;
  std::vector<RailInfo> rails_;
  mutable std::mutex mutex_;
  bool started_ = false;
  double last_s_ = 0, last_process_s_ = 0, last_thread_s_ = 0;
  double last_busy_s_ = 0;
  bool asleep_ = false;
  long wakes_ = 0;
  double energy_j_ = 0;
};

// Checks the options (every value finite, powers and energies >= 0,
// sleep_w <= idle_w); throws edp::UsageError naming the key.
std::unique_ptr<SimulatedSensor> open_simulated(const SimulatedOptions& options,
                                                std::vector<std::string>* log);

}  // namespace edp::power
