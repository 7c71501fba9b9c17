// The sensor model of an averaging rail (issue 9, DESIGN §3 and §4.2), on a
// simulated TX2 INA3221 (ina3221_sim.h) read by the real EnergyMeter: the
// update interval comes from the total rails alone and survives a repeated
// value, and a frozen total rail flags the run.
#include <catch2/catch.hpp>

#include <chrono>
#include <thread>

#include "power/energy_meter.h"
#include "power/ina3221_sim.h"
#include "support/files.h"

using edp::testing::sleep_s;
using namespace edp::power;
using edp::testing::Ina3221Sim;
using edp::testing::Ina3221SimOptions;

namespace {

// A meter on the simulated tree, VDD_IN as the only total rail, already
// sampling for `settle_s` so that it has seen a few updates.
EnergyMeter open_settled(const Ina3221Sim& sim, double settle_s = 1.5) {
  PowerOptions o;
  o.source = "jetson";
  o.sysfs_root = sim.root();
  o.rate_hz = 100;
  EnergyMeter meter = EnergyMeter::open(o);
  meter.set_total_rails({"VDD_IN"});
  meter.start();
  sleep_s(settle_s);
  return meter;
}

const RailMeasurement& model_rail(const Measurement& m, const std::string& name) {
  for (const auto& r : m.rails)
    if (r.rail == name) return r;
  FAIL("no rail " << name);
  return m.rails.front();
}

}  // namespace

TEST_CASE("sensor model: the update interval is estimated on the total rails only",
          "[power][sensor_model]") {
  Ina3221SimOptions options;
  options.device_period_s["0-0040"] = 2.0;  // GPU, SOC, WIFI: a slow, non-total chip
  Ina3221Sim sim(options);
  EnergyMeter meter = open_settled(sim, 2.5);
  meter.begin_window("idle");
  sleep_s(4.5);
  const Measurement m = meter.end_window("idle");
  INFO("Measurement.update_interval_s "
       << m.update_interval_s << ", VDD_IN " << model_rail(m, "VDD_IN").update_interval_s
       << ", VDD_SYS_GPU " << model_rail(m, "VDD_SYS_GPU").update_interval_s);
  CHECK(model_rail(m, "VDD_SYS_GPU").distinct_values >= 2);  // the slow rail did change
  CHECK(m.update_interval_s == Approx(0.43).epsilon(0.15));
  CHECK(model_rail(m, "VDD_IN").update_interval_s == Approx(0.43).epsilon(0.15));
}

TEST_CASE("sensor model: a value repeated every 4th update does not inflate the interval",
          "[power][sensor_model]") {
  Ina3221Sim sim;
  sim.repeat_every("VDD_IN", 4);  // a quarter of VDD_IN's updates are hidden
  EnergyMeter meter = open_settled(sim);
  meter.begin_window("idle");
  sleep_s(4.0);
  const Measurement m = meter.end_window("idle");
  INFO("Measurement.update_interval_s " << m.update_interval_s << " (true 0.43, the mean gap "
                                        << "between changes is 0.57)");
  CHECK(m.update_interval_s == Approx(0.43).epsilon(0.15));
}

TEST_CASE("sensor model: one hidden update in a short window does not double the interval",
          "[power][sensor_model]") {
  Ina3221Sim sim;
  EnergyMeter meter = open_settled(sim);
  // A window over three updates of VDD_IN whose middle one repeats the value.
  sim.wait_phase("VDD_IN", 0.5);
  meter.begin_window("short");
  sim.wait_updates("VDD_IN", 1);
  sim.hold("VDD_IN", 1);
  sim.wait_updates("VDD_IN", 2);
  sleep_s(0.2);
  const Measurement m = meter.end_window("short");
  INFO("Measurement.update_interval_s " << m.update_interval_s << " (true 0.43), VDD_IN "
                                        << model_rail(m, "VDD_IN").update_interval_s);
  CHECK(m.update_interval_s == Approx(0.43).epsilon(0.15));
  CHECK(m.update_interval_s < 0.7);
}

TEST_CASE("sensor model: a stopped chip flags the run, a live one does not",
          "[power][sensor_model]") {
  Ina3221Sim sim;
  EnergyMeter meter = open_settled(sim);

  // The INA3221 at 0x41 stops: every channel keeps its value.
  for (const char* r : {"VDD_IN", "VDD_SYS_CPU", "VDD_SYS_DDR"}) sim.freeze(r);
  sleep_s(0.05);
  meter.begin_window("frozen");
  sleep_s(2.0);  // 4-5 expected updates of 0.43 s
  const Measurement frozen = meter.end_window("frozen");
  INFO("frozen window: " << frozen.time_s() << " s, VDD_IN distinct values "
                         << model_rail(frozen, "VDD_IN").distinct_values << ", update interval "
                         << frozen.update_interval_s);
  CHECK(model_rail(frozen, "VDD_IN").distinct_values == 1);  // the simulator did freeze it
  CHECK(frozen.frozen);
  CHECK(model_rail(frozen, "VDD_IN").frozen);
  CHECK(model_rail(frozen, "VDD_SYS_CPU").frozen);
  CHECK_FALSE(model_rail(frozen, "VDD_SYS_GPU").frozen);  // the chip at 0x40 still updates

  for (const char* r : {"VDD_IN", "VDD_SYS_CPU", "VDD_SYS_DDR"}) sim.freeze(r, false);
  sim.freeze("VDD_SYS_GPU");  // one held channel whose chip moves on: not a stall
  sim.wait_updates("VDD_IN", 2);
  meter.begin_window("live");
  sleep_s(2.0);
  const Measurement live = meter.end_window("live");
  CHECK(model_rail(live, "VDD_IN").distinct_values >= 3);
  CHECK_FALSE(live.frozen);
  CHECK_FALSE(model_rail(live, "VDD_IN").frozen);
  CHECK(model_rail(live, "VDD_SYS_GPU").distinct_values == 1);
  CHECK_FALSE(model_rail(live, "VDD_SYS_GPU").frozen);  // VDD_SYS_SOC on its chip contradicts it
}

TEST_CASE("sensor model: a total rail reading exactly 0 W is idle, not frozen",
          "[power][sensor_model]") {
  // Issue 21, defect 2: the AGX Xavier's CV rail reads 0 mW with the DLA
  // and PVA idle; as a total rail it failed every run as "frozen", and its
  // missing update interval left the lag correction undone.
  Ina3221Sim sim;
  sim.set_power_w("VDD_SYS_CPU", 0.0);  // exactly zero, no noise: the driver's 0 mW
  sim.set_noiseless("VDD_SYS_CPU");
  EnergyMeter meter = open_settled(sim);
  meter.set_total_rails({"VDD_IN", "VDD_SYS_CPU"});
  REQUIRE(meter.await_averaging_periods(5.0));  // the zero rail takes its chip's interval
  meter.begin_window("idle-cv");
  sleep_s(2.0);
  const Measurement m = meter.end_window("idle-cv");
  INFO("VDD_SYS_CPU distinct " << model_rail(m, "VDD_SYS_CPU").distinct_values << ", energy "
                               << model_rail(m, "VDD_SYS_CPU").energy_j);
  CHECK(model_rail(m, "VDD_SYS_CPU").distinct_values == 1);
  CHECK(model_rail(m, "VDD_SYS_CPU").energy_j == 0.0);
  CHECK_FALSE(model_rail(m, "VDD_SYS_CPU").frozen);
  CHECK_FALSE(m.frozen);
  CHECK(model_rail(m, "VDD_SYS_CPU").update_interval_s == Approx(0.43).epsilon(0.15));
  CHECK(m.update_interval_s == Approx(0.43).epsilon(0.15));
  CHECK(model_rail(m, "VDD_SYS_CPU").lag_correction_s > 0);
}

TEST_CASE(
    "sensor model: missed deadlines are counted past t1, until the lag correction has its update",
    "[power][sensor_model]") {
  // end_window waits for the update covering t1 (0.43 s updates here): the
  // sampler counts its missed deadlines over that wait too, so the deadlines
  // they are a share of span t0 .. sampled_until_s, not the window alone (a
  // 0.5 s window is followed by about 0.4-1.1 s of such waiting).
  Ina3221Sim sim;
  EnergyMeter meter = open_settled(sim);
  meter.begin_window("short");
  sleep_s(0.5);
  const Measurement m = meter.end_window("short");
  INFO("t1 " << m.t1_s << ", sampled until " << m.sampled_until_s << ", lag correction "
             << m.lag_correction_s);
  REQUIRE(m.lag_correction_s > 0);
  CHECK(m.sampled_until_s - m.t1_s > 0.2);
  CHECK(m.sampled_until_s - m.t1_s < 2.5 * m.lag_correction_s + 0.6);
}
