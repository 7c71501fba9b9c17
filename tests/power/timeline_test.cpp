// A window's timeline (power.timeline, DESIGN §5 samples.csv): decimated to
// the stated rate, bounded by Sampler::kTimelinePoints, with a pre-roll, and
// an averaging rail's lag-corrected power shifted back by its period: on the
// simulated TX2 INA3221 a load step shows where it happened.
#include <catch2/catch.hpp>

#include <chrono>
#include <cmath>
#include <thread>

#include "power/energy_meter.h"
#include "power/ina3221_sim.h"
#include "power/sampler.h"
#include "support/files.h"

using edp::testing::sleep_s;
using namespace edp::power;
using edp::testing::Ina3221Sim;

namespace {

PowerOptions timeline_trace_options(double rate_hz, double timeline_hz) {
  PowerOptions o;
  o.source = "trace";
  o.trace_file = std::string(EDPBENCH_FIXTURES) + "/power/traces/tx2_idle.csv";
  o.rate_hz = rate_hz;
  o.timeline_hz = timeline_hz;
  return o;
}

size_t rail_index(const Measurement& m, const std::string& name) {
  for (size_t i = 0; i < m.rails.size(); ++i)
    if (m.rails[i].rail == name) return i;
  FAIL("no rail " << name);
  return 0;
}

// First point at or after `from` whose value reaches `level`; NaN if none.
double first_crossing(const Timeline& tl, const std::vector<double>& v, double from, double level) {
  for (size_t i = 0; i < tl.t_s.size(); ++i)
    if (tl.t_s[i] >= from && v[i] >= level) return tl.t_s[i];
  return NAN;
}

}  // namespace

TEST_CASE("timeline: off by default, and idle baselines keep none", "[power][timeline]") {
  EnergyMeter meter = EnergyMeter::open(timeline_trace_options(200, 0));
  meter.begin_window("w");
  sleep_s(0.1);
  CHECK(meter.end_window("w").timeline.empty());
  EnergyMeter with = EnergyMeter::open(timeline_trace_options(200, 20));
  with.begin_window("w", /*timeline=*/false);
  sleep_s(0.1);
  CHECK(with.end_window("w").timeline.empty());
}

TEST_CASE("timeline: decimated to the stated rate, with a pre-roll and the window's span",
          "[power][timeline]") {
  EnergyMeter meter = EnergyMeter::open(timeline_trace_options(200, 20));
  meter.start();
  sleep_s(0.7);  // more history than the pre-roll
  meter.begin_window("w");
  sleep_s(1.0);
  const Measurement m = meter.end_window("w");
  const Timeline& tl = m.timeline;
  REQUIRE(!tl.empty());
  CHECK(tl.spacing_s == Approx(0.05));
  REQUIRE(tl.power_w.size() == m.rails.size());
  REQUIRE(tl.corrected_w.size() == m.rails.size());
  // Points no closer than the spacing, less half a sampler period; the last
  // one is the window's closing tick, kept whenever it comes.
  for (size_t i = 1; i + 1 < tl.t_s.size(); ++i) CHECK(tl.t_s[i] - tl.t_s[i - 1] >= 0.05 - 0.0026);
  CHECK(tl.t_s.front() < 0);
  CHECK(tl.t_s.front() >= -Sampler::kTimelinePrerollS);
  CHECK(tl.t_s.back() >= m.time_s());
  // About 20 points a second over pre-roll + window.
  CHECK(tl.t_s.size() == Approx(20 * (Sampler::kTimelinePrerollS + m.time_s())).margin(3));
  // An instantaneous trace needs no correction.
  const size_t r = rail_index(m, "VDD_IN");
  for (size_t i = 0; i < tl.t_s.size(); ++i) CHECK(tl.corrected_w[r][i] == tl.power_w[r][i]);
}

TEST_CASE("timeline: a window longer than its buffer is decimated further, never grown",
          "[power][timeline]") {
  // 1000 points a second fill kTimelinePoints in about 2 s.
  EnergyMeter meter = EnergyMeter::open(timeline_trace_options(1000, 1000));
  meter.begin_window("long");
  sleep_s(3.0);
  const Measurement m = meter.end_window("long");
  const Timeline& tl = m.timeline;
  CHECK(tl.t_s.size() <= Sampler::kTimelinePoints);
  CHECK(tl.t_s.size() > Sampler::kTimelinePoints / 2);
  CHECK(tl.spacing_s == Approx(0.002));  // doubled once
  CHECK(tl.t_s.back() >= m.time_s());    // the end is still there
  CHECK(tl.t_s.front() < 0.01);          // and the start
}

TEST_CASE("timeline: the corrected power of an averaging rail puts a load step where it was",
          "[power][timeline][sensor_model]") {
  Ina3221Sim sim;
  PowerOptions o;
  o.source = "jetson";
  o.sysfs_root = sim.root();
  o.rate_hz = 200;
  o.timeline_hz = 50;
  EnergyMeter meter = EnergyMeter::open(o);
  meter.set_total_rails({"VDD_IN"});
  REQUIRE(meter.await_averaging_periods(5));
  sim.wait_phase("VDD_IN", 0.5);
  meter.begin_window("step");
  sleep_s(0.3);
  const double step_s = now_s();
  sim.set_power_w("VDD_IN", 12.0);
  sleep_s(2.0);
  const Measurement m = meter.end_window("step");
  sim.set_power_w("VDD_IN", 2.0);
  const size_t r = rail_index(m, "VDD_IN");
  const Timeline& tl = m.timeline;
  const double t_step = step_s - m.t0_s;
  const double lag = m.rails[r].lag_correction_s;
  REQUIRE(lag > 0);
  // Half way from idle to load: the raw reading gets there about one period
  // after the step (the first mean that is mostly load is published then),
  // the corrected one within about half a period of it.
  const double raw_at = first_crossing(tl, tl.power_w[r], 0, 7.0);
  const double corrected_at = first_crossing(tl, tl.corrected_w[r], 0, 7.0);
  INFO("step at " << t_step << " s, raw crosses at " << raw_at << " s, corrected at "
                  << corrected_at << " s, T " << lag << " s");
  REQUIRE(!std::isnan(raw_at));
  REQUIRE(!std::isnan(corrected_at));
  CHECK(raw_at - corrected_at == Approx(lag).margin(0.03));
  CHECK(std::fabs(corrected_at - t_step) < 0.6 * lag);
  CHECK(raw_at - t_step > 0.4 * lag);
  // Past the last point that was published T later, the corrected power is
  // not known yet.
  CHECK(std::isnan(tl.corrected_w[r].back()));
}

TEST_CASE("timeline: a counter's power is its increment over the points' gap",
          "[power][timeline]") {
  // RAPL-like: a counter rising at 5 W.
  class Ramp final : public Sensor {
   public:
    std::string name() const override { return "ramp"; }
    const std::vector<RailInfo>& rails() const override { return rails_; }
    size_t read(double* v, std::string*) noexcept override {
      v[0] = 5.0 * now_s();
      return 0;
    }

   private:
    std::vector<RailInfo> rails_{{"E", ValueKind::energy_j, Timing::counter}};
  };
  std::vector<std::unique_ptr<Sensor>> sensors;
  sensors.push_back(std::make_unique<Ramp>());
  PowerOptions o;
  o.rate_hz = 200;
  o.timeline_hz = 5;
  EnergyMeter meter = EnergyMeter::from_sensors(std::move(sensors), o);
  meter.begin_window("c");
  sleep_s(1.0);
  const Measurement m = meter.end_window("c");
  const Timeline& tl = m.timeline;
  REQUIRE(tl.t_s.size() > 3);
  CHECK(std::isnan(tl.power_w[0][0]));
  // A read's time is the middle of its span: a preempted sampler thread
  // shifts it by a few ms against 200 ms between points.
  for (size_t i = 1; i + 1 < tl.t_s.size(); ++i)
    CHECK(tl.power_w[0][i] == Approx(5.0).epsilon(0.05));
}
