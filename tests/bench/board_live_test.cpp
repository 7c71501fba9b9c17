// Each board family's tree, live: the INA3221 simulator (tests/power/
// ina3221_sim) writes the board's driver layout and publishes the mean of
// each rail's true power every 0.43 s; edpbench identifies the board from the
// tree's device tree, chooses the total from the board table, and measures a
// load step. The energy on the chosen total must match the true energy of
// those rails within 1% (docs/boards.md prints these figures).
#include <catch2/catch.hpp>

#include <stdlib.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "bench/engine/board_rails.h"
#include "platform/platform.h"
#include "power/energy_meter.h"
#include "power/ina3221_sim.h"
#include "power/total_rails.h"

using namespace edp;

namespace {

struct Load {
  const char* rail;
  double run_w;
};

struct LiveCase {
  const char* layout;
  const char* board;  // "" = not in the table (the TX2 tree has no model file)
  std::vector<std::string> total;
  std::vector<Load> load;  // rails stepped up for the run
};

}  // namespace

TEST_CASE("live boards: the chosen total's energy against the true energy within 1%",
          "[boards][live][slow]") {
  const LiveCase cases[] = {
      {"agx-orin-jp5",
       "Jetson AGX Orin",
       {"VDD_GPU_SOC", "VDD_CPU_CV", "VIN_SYS_5V0"},
       {{"VDD_GPU_SOC", 12.0}, {"VDD_CPU_CV", 6.0}, {"VIN_SYS_5V0", 4.0}}},
      // CV stays at exactly 0 W (DLA and PVA idle) through the run.
      {"agx-xavier-r32",
       "Jetson AGX Xavier",
       {"GPU", "CPU", "SOC", "CV", "VDDRQ", "SYS5V"},
       {{"GPU", 8.0}, {"CPU", 3.0}, {"SOC", 2.0}}},
      {"tx2-jp4", "", {"VDD_IN"}, {{"VDD_IN", 8.0}}},
  };
  for (const auto& c : cases) {
    INFO(c.layout);
    testing::Ina3221SimOptions so;
    so.layout = c.layout;
    testing::Ina3221Sim sim(so);
    if (std::string(c.layout) == "agx-xavier-r32") sim.set_noiseless("CV");
    power::PowerOptions po;
    po.source = "jetson";
    po.sysfs_root = sim.root();
    auto meter = power::EnergyMeter::open(po);
    const platform::Platform p = platform::probe(sim.root());
    CHECK(p.board == c.board);
    const power::TotalRails t = power::choose_total_rails(meter.rails(), bench::rail_roles(p), {});
    REQUIRE(t.rails == c.total);
    meter.set_total_rails(t.rails);
    REQUIRE(meter.await_averaging_periods(5.0));
    sim.wait_phase(c.total.front(), 0.3);
    meter.begin_window("run");
    std::vector<double> idle;
    for (const auto& l : c.load) {
      idle.push_back(sim.true_power_w(l.rail, power::now_s()));
      sim.set_power_w(l.rail, l.run_w);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2500));
    for (size_t i = 0; i < c.load.size(); ++i) sim.set_power_w(c.load[i].rail, idle[i]);
    const power::Measurement m = meter.end_window("run");
    REQUIRE(m.complete);
    double true_j = 0;
    for (const auto& r : t.rails) true_j += sim.true_energy_j(r, m.t0_s, m.t1_s);
    const double measured_j = m.energy_j(t.rails);
    const double error = measured_j / true_j - 1;
    std::printf(
        "live %-15s %-18s total %-38s true %8.3f J  measured %8.3f J  (%+.2f%%)  "
        "interval %.3f s  lag %.3f s  frozen %d\n",
        c.layout, p.board.empty() ? "(generic rule)" : p.board.c_str(),
        t.why.substr(9, t.why.find(" (total_rails") - 9).c_str(), true_j, measured_j, 100 * error,
        m.update_interval_s, m.lag_correction_s, m.frozen ? 1 : 0);
    // What summing every rail would read (the old AGX Orin rule).
    const double all_j = m.energy_j(meter.rail_names());
    std::printf("     every rail summed: %8.3f J (%+.2f%%)\n", all_j, 100 * (all_j / true_j - 1));
    CHECK(std::abs(error) < 0.01);
    CHECK_FALSE(m.frozen);
    CHECK(m.update_interval_s == Approx(0.43).epsilon(0.15));
  }
}

namespace {

// The AGX Thor's carrier INA238 as the mainline ina238 hwmon driver shows it
// (name, label, in1_input mV, curr1_input mA, power1_input uW), published
// every `period_s` as the mean of a known step load over that period, each
// file rewritten in place at a fixed width.
class Ina238Sim {
 public:
  explicit Ina238Sim(double period_s) : period_s_(period_s) {
    char tmpl[] = "/tmp/edp_ina238_sim_XXXXXX";
    root_ = mkdtemp(tmpl);
    const std::string dt = root_ + "/proc/device-tree";
    std::filesystem::create_directories(dt);
    std::ofstream(dt + "/model", std::ios::binary)
        << std::string("NVIDIA Jetson AGX Thor Developer Kit\0", 37);
    dir_ = root_ + "/sys/class/hwmon/hwmon1";
    std::filesystem::create_directories(dir_);
    std::ofstream(dir_ + "/name") << "ina238\n";
    std::ofstream(dir_ + "/label") << "VIN\n";
    publish(idle_w_);
    t0_ = power::now_s();
    thread_ = std::thread([this] { run(); });
  }
  ~Ina238Sim() {
    stop_ = true;
    thread_.join();
    std::filesystem::remove_all(root_);
  }
  const std::string& root() const { return root_; }
  void set_power_w(double w) {
    std::lock_guard<std::mutex> lock(mutex_);
    steps_.push_back({power::now_s(), w});
  }
  // Exact integral of the true power over [a, b].
  double true_energy_j(double a, double b) const {
    std::lock_guard<std::mutex> lock(mutex_);
    double e = 0;
    for (size_t i = 0; i <= steps_.size(); ++i) {
      const double from = i == 0 ? -1e300 : steps_[i - 1].first;
      const double to = i == steps_.size() ? 1e300 : steps_[i].first;
      const double w = i == 0 ? idle_w_ : steps_[i - 1].second;
      const double lo = std::max(a, from), hi = std::min(b, to);
      if (hi > lo) e += w * (hi - lo);
    }
    return e;
  }

 private:
  void publish(double w) {
    const double v = 19.968;
    write(dir_ + "/in1_input", std::llround(v * 1000));
    write(dir_ + "/curr1_input", std::llround(w / v * 1000));
    write(dir_ + "/power1_input", std::llround(w * 1e6));
  }
  static void write(const std::string& path, long long value) {
    char buf[32];
    const int n = std::snprintf(buf, sizeof buf, "%12lld\n", value);
    std::FILE* f = std::fopen(path.c_str(), "r+");
    if (!f) f = std::fopen(path.c_str(), "w");
    std::fwrite(buf, 1, static_cast<size_t>(n), f);
    std::fclose(f);
  }
  void run() {
    for (int k = 1; !stop_; ++k) {
      const double t = t0_ + k * period_s_;
      std::this_thread::sleep_for(std::chrono::duration<double>(t - power::now_s()));
      // The exact mean with +-5 mW of alternating measurement noise: a live
      // monitor's last digits move at every update.
      publish(true_energy_j(t - period_s_, t) / period_s_ + (k % 2 ? 0.005 : -0.005));
    }
  }
  double period_s_, t0_ = 0, idle_w_ = 18.0;
  std::string root_, dir_;
  mutable std::mutex mutex_;
  std::vector<std::pair<double, double>> steps_;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

}  // namespace

TEST_CASE("live boards: AGX Thor's carrier INA238 (hwmon) as the total within 1%",
          "[boards][live]") {
  Ina238Sim sim(0.1);
  power::PowerOptions po;
  po.source = "hwmon";
  po.sysfs_root = sim.root();
  auto meter = power::EnergyMeter::open(po);
  const platform::Platform p = platform::probe(sim.root());
  CHECK(p.board == "Jetson AGX Thor");
  const power::TotalRails t = power::choose_total_rails(meter.rails(), bench::rail_roles(p), {});
  REQUIRE(t.rails == std::vector<std::string>{"VIN"});
  meter.set_total_rails(t.rails);
  REQUIRE(meter.await_averaging_periods(5.0));
  meter.begin_window("run");
  sim.set_power_w(60.0);
  std::this_thread::sleep_for(std::chrono::milliseconds(2500));
  sim.set_power_w(18.0);
  const power::Measurement m = meter.end_window("run");
  REQUIRE(m.complete);
  const double true_j = sim.true_energy_j(m.t0_s, m.t1_s);
  const double error = m.energy_j(t.rails) / true_j - 1;
  std::printf(
      "live agx-thor        Jetson AGX Thor    total VIN (INA238, hwmon)                true "
      "%8.3f J  measured %8.3f J  (%+.2f%%)  interval %.3f s  lag %.3f s  frozen %d\n",
      true_j, m.energy_j(t.rails), 100 * error, m.update_interval_s, m.lag_correction_s,
      m.frozen ? 1 : 0);
  CHECK(std::abs(error) < 0.01);
  CHECK_FALSE(m.frozen);
}
