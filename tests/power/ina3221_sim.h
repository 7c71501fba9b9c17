// A simulated TX2 INA3221 under the JetPack 4 ina3221x driver, for tests
// with a known answer (docs/lag-accuracy.md).
//
// It builds the driver's sysfs tree in a temporary directory:
//
//   <root>/sys/bus/i2c/drivers/ina3221x/0-0040/iio:device0/  VDD_SYS_GPU, VDD_SYS_SOC, VDD_4V0_WIFI
//   <root>/sys/bus/i2c/drivers/ina3221x/0-0041/iio:device1/  VDD_IN, VDD_SYS_CPU, VDD_SYS_DDR
//
// with rail_name_K, in_powerK_input (mW), in_currentK_input (mA) and
// in_voltageK_input (mV), and a thread that behaves like the chip: every
// update period (per device, optionally jittered) it publishes, for each rail
// of the device, the MEAN of the rail's true power over the averaging period
// that just ended, and holds it until the next update. Files are rewritten in
// place (same inode, pwrite at offset 0, fixed width with leading spaces), so a
// reader that keeps its fd open and preads sees every update and never an
// empty or half-length file.
//
// The true power is piecewise constant and set by the test thread
// (set_power_w records steady_clock now and the value); true_energy_j is its
// exact integral. Times are edp::power::now_s() seconds (steady_clock).
#pragma once

#include <atomic>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace edp::power {
class EnergyMeter;
struct Measurement;
}  // namespace edp::power

namespace edp::testing {

struct Ina3221SimOptions {
  double update_period_s = 0.43;  // time between two publications of a device
  // The period each published value is the mean over; 0 = the time since the
  // device's previous publication (the chip converts continuously).
  double averaging_s = 0;
  // Each publication time is nominal + uniform(-jitter_s, +jitter_s); the
  // nominal schedule does not drift.
  double jitter_s = 0;
  // Standard deviation of the measurement noise added to each published mean
  // (watts, per rail). A little noise makes successive values differ, as on
  // a real board; 0 = exact means (then a constant load never changes value).
  double noise_w = 0.01;
  double idle_w = 2.0;      // VDD_IN's true power at start
  double vdd_in_v = 19.0;   // bus voltage of VDD_IN (in_voltage), volts
  double sub_rail_v = 5.0;  // bus voltage of the other rails
  unsigned seed = 1;
  // Per device ("0-0040", "0-0041") update period overriding update_period_s.
  std::map<std::string, double> device_period_s;
  // The board whose tree is built (docs/boards.md):
  //  "tx2-jp4"        the TX2 under L4T R32's ina3221x (iio, mW power files)
  //  "agx-xavier-r32" an AGX Xavier under R32.1's ina3221x: GPU, CPU, SOC at
  //                   1-0040, CV, VDDRQ, SYS5V at 1-0041 (model jetson-xavier)
  //  "agx-orin-jp5"   an AGX Orin under L4T R35's mainline ina3221 (hwmon:
  //                   inK_label, inK_input mV, currK_input mA, no power file,
  //                   update_interval, samples, an NC and a disabled channel,
  //                   the shunt-sum channel): VDD_GPU_SOC, VDD_CPU_CV,
  //                   VIN_SYS_5V0 at 1-0040, VDDQ_VDD2_1V8AO at 1-0041
  // Every layout but the TX2's writes /proc/device-tree/model and compatible.
  // Without VDD_IN (AGX boards) each rail starts at its own idle power and
  // follows nothing.
  std::string layout = "tx2-jp4";
};

class Ina3221Sim {
 public:
  // Creates the tree (with the idle values already published) and starts the
  // update thread. Sub-rails follow VDD_IN with fixed fractions until they
  // are set explicitly.
  explicit Ina3221Sim(Ina3221SimOptions options = {});
  ~Ina3221Sim();  // stops the thread and removes the tree
  Ina3221Sim(const Ina3221Sim&) = delete;
  Ina3221Sim& operator=(const Ina3221Sim&) = delete;

  const std::string& root() const { return root_; }  // PowerOptions::sysfs_root
  static std::vector<std::string> rail_names();      // the six TX2 rails
  std::vector<std::string> rails() const;            // this layout's rails

  // The rail's true power from now on (watts).
  void set_power_w(const std::string& rail, double watts);
  // The rail's true power is `fraction` x VDD_IN's from now on (the default
  // for sub-rails: GPU 0.30, SOC 0.15, WIFI 0.01, CPU 0.25, DDR 0.12).
  void follow_vdd_in(const std::string& rail, double fraction);
  // Frozen: the rail's files are no longer rewritten (the true signal goes on).
  void freeze(const std::string& rail, bool frozen = true);
  // No measurement noise on this rail: an idle rail at 0 W then reads exactly
  // 0 mW at every update, as the driver reports a shunt voltage below one
  // LSB (an idle AGX Xavier CV channel: tegrastats "CV 0mW").
  void set_noiseless(const std::string& rail, bool noiseless = true);
  // Every k-th publication of the rail repeats the previous value instead of
  // the new mean (a hidden update); 0 = never.
  void repeat_every(const std::string& rail, int k);
  // The rail's next `n` publications repeat the previous value (hidden updates).
  void hold(const std::string& rail, int n);

  double true_power_w(const std::string& rail, double t_s) const;
  // Exact integral of the rail's true power over [t0_s, t1_s] (joules).
  double true_energy_j(const std::string& rail, double t0_s, double t1_s) const;

  double update_period_s(const std::string& rail) const;
  // Next scheduled publication of the rail's device (jitter included).
  double next_update_s(const std::string& rail) const;
  // Publications of the rail's device so far (the chip's updates; frozen,
  // held and repeated values included).
  size_t publications(const std::string& rail) const;
  // Blocks until the rail's device has published `n` more times.
  void wait_updates(const std::string& rail, size_t n) const;
  // Blocks until `phase` (0..1) of an update period after the rail's next
  // publication (returns that time).
  double wait_phase(const std::string& rail, double phase) const;

 private:
  struct Rail;
  struct Device;
  Rail& rail(const std::string& name);
  const Rail& rail(const std::string& name) const;
  double energy_locked(const Rail& r, double t0, double t1) const;
  double power_locked(const Rail& r, double t) const;
  void publish_locked(Device& d, double t);
  void write_dt(const std::string& model, const std::vector<std::string>& compatible);
  void run();

  Ina3221SimOptions options_;
  std::string root_;
  std::vector<std::unique_ptr<Rail>> rails_;
  std::vector<std::unique_ptr<Device>> devices_;
  std::mt19937 rng_;
  mutable std::mutex mutex_;
  mutable std::condition_variable published_cv_;
  std::condition_variable stop_cv_;
  bool stop_ = false;
  std::thread thread_;
};

// One known-answer run (docs/lag-accuracy.md): wait until `phase` of an update
// period after VDD_IN's next publication, open a window, step VDD_IN from
// idle to `run_w` at once, hold for `seconds`, step back to idle just before
// closing the window, then wait until the sensor has settled on idle again.
struct StepRun {
  double seconds = 0, phase = 0;
  double true_j = 0;         // sim.true_energy_j over [m.t0_s, m.t1_s]
  double uncorrected_j = 0;  // rails[VDD_IN].energy_uncorrected_j
  double corrected_j = 0;    // rails[VDD_IN].energy_j
  double lag_correction_s = 0, update_interval_s = 0;
  double t0_s = 0, t1_s = 0;
  double error_uncorrected() const { return uncorrected_j / true_j - 1; }
  double error_corrected() const { return corrected_j / true_j - 1; }
};
StepRun step_run(edp::power::EnergyMeter& meter, Ina3221Sim& sim, double seconds, double phase,
                 double idle_w, double run_w, const std::string& rail = "VDD_IN");

}  // namespace edp::testing
