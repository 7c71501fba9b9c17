// The protocol's seams (issue 22.1): the window is the one definition of a
// run's time, energy and evidence, and the first run fixes the block count.
#include <catch2/catch.hpp>

#include "bench/window.h"
#include "protocol_fixture.h"

using namespace edp;
using namespace edp::testing;

TEST_CASE("protocol: the first run fixes the block count for the others", "[bench][protocol]") {
  Fixture f;
  // Run 1 sleeps 6 ms a step, so min_run_s = 30 ms takes about 5 blocks of
  // one step; runs 2-4 sleep 1 ms and would need about 30 blocks each if
  // every run looked for min_run_s again.
  bench::PlanItem it = f.item("ops", {{"op", "sleep"}}, {sleep_part("sleep", {0, 6, 1, 1, 1})});
  it.settings.steps = 1;
  it.settings.runs = 4;
  it.settings.min_run_s = 0.03;
  const auto rec = bench::measure_item(f.sweep, it);
  REQUIRE(rec.status == "ok");
  const auto& runs = rec.parts[0].run_records;
  REQUIRE(runs.size() == 4);
  CHECK(runs[0].blocks >= 5);
  CHECK(runs[0].blocks < 30);
  for (const auto& r : runs) CHECK(r.blocks == runs[0].blocks);
  CHECK(runs[1].time_s < runs[0].time_s / 2);  // per block: the work really differs
}

TEST_CASE("window: with a meter, time is the energy window's own span", "[bench][protocol]") {
  power::EnergyMeter meter = Fixture::meter();
  bench::RunWindow win(meter, "w#1", false);
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  report::RunRecord r;
  const std::string failure = win.close(bench::WindowJudging{{"VDD_IN"}, 2.0, 0, 1}, 2, r);
  CHECK(failure.empty());
  CHECK(r.blocks == 2);
  CHECK(r.time_s * 2 == Approx(r.end_monotonic_s - r.start_monotonic_s).epsilon(1e-9));
  CHECK(r.time_s * 2 >= 0.03);
  CHECK(r.energy_j == Approx(kPowerW * r.time_s).epsilon(1e-9));
  CHECK(r.power_w_mean == Approx(kPowerW).epsilon(1e-9));
  CHECK(r.dynamic_energy_j == Approx((kPowerW - 2.0) * r.time_s).epsilon(1e-9));
  CHECK(r.edp_js == Approx(r.energy_j * r.time_s).epsilon(1e-9));
}

TEST_CASE("window: without a meter, time and edges come from its own clock", "[bench][protocol]") {
  power::EnergyMeter meter = power::EnergyMeter::from_sensors({}, {});
  REQUIRE_FALSE(meter.measures_energy());
  bench::RunWindow win(meter, "w#1", false);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  report::RunRecord r;
  CHECK(win.close(bench::WindowJudging{}, 1, r).empty());
  CHECK(r.time_s >= 0.02);
  CHECK(r.end_monotonic_s - r.start_monotonic_s == Approx(r.time_s).margin(1e-3));
  CHECK(r.end_unix_s - r.start_unix_s == Approx(r.time_s).margin(1e-3));
  CHECK(std::isnan(r.energy_j));
}
