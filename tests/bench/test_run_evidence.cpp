// judge_window (DESIGN §3, §5): one window's energy and flags, from a
// Measurement built by hand.
#include <catch2/catch.hpp>

#include "bench/run_evidence.h"

using edp::bench::judge_window;
using edp::bench::WindowContext;
using edp::power::Measurement;
using edp::power::RailMeasurement;
using edp::power::Timing;

namespace {

RailMeasurement vdd_in(double energy_j, double interval_s, double lag_s) {
  RailMeasurement r{};
  r.sensor = "jetson";
  r.rail = "VDD_IN";
  r.timing = Timing::averaging;
  r.energy_j = energy_j;
  r.energy_uncorrected_j = energy_j;
  r.power_w_mean = energy_j / 10;
  r.samples = 1000;
  r.distinct_values = 24;
  r.largest_gap_s = 0.01;
  r.update_interval_s = interval_s;
  r.lag_correction_s = lag_s;
  return r;
}

Measurement window(RailMeasurement rail) {
  Measurement m;
  m.t0_s = 100;
  m.t1_s = 110;
  m.update_interval_s = rail.update_interval_s;
  m.lag_correction_s = rail.lag_correction_s;
  m.samples = 1000;
  m.rails.push_back(std::move(rail));
  return m;
}

}  // namespace

TEST_CASE("judge_window: a corrected 10 s window of 0.43 s updates is trusted",
          "[bench][evidence]") {
  edp::report::RunRecord r;
  const auto failure = judge_window(window(vdd_in(50, 0.43, 0.43)), {{"VDD_IN"}, 2, 10, 2.0}, r);
  CHECK(failure.empty());
  CHECK_FALSE(r.low_confidence);
  CHECK(r.energy_j == Approx(25));  // per block
  CHECK(r.dynamic_energy_j == Approx(25 - 2.0 * 5));
  CHECK(r.lag_correction_s == Approx(0.43));
}

TEST_CASE("judge_window: an averaging rail whose lag was not corrected is low confidence",
          "[bench][evidence]") {
  // The interval became known only after the window opened.
  edp::report::RunRecord r;
  const auto failure = judge_window(window(vdd_in(50, 0.43, 0)), {{"VDD_IN"}, 1, 10, NAN}, r);
  CHECK(failure.empty());
  CHECK(r.low_confidence);
  CHECK_THAT(r.note, Catch::Contains("no lag correction"));
}

TEST_CASE("judge_window: a stated period the updates contradict is low confidence",
          "[bench][evidence]") {
  edp::report::RunRecord r;
  judge_window(window(vdd_in(50, 0.8, 0.4)), {{"VDD_IN"}, 1, 10, NAN}, r);
  CHECK(r.low_confidence);
  CHECK_THAT(r.note, Catch::Contains("stated averaging period 0.4 s but updates every 0.8 s"));
}

TEST_CASE("judge_window: a frozen total rail gives no energy and says why", "[bench][evidence]") {
  auto rail = vdd_in(50, 0.43, 0.43);
  rail.frozen = true;
  rail.distinct_values = 1;
  auto m = window(rail);
  m.frozen = true;
  edp::report::RunRecord r;
  const auto failure = judge_window(m, {{"VDD_IN"}, 1, 10, NAN}, r);
  CHECK_THAT(failure, Catch::Contains("frozen sensor: VDD_IN"));
  CHECK(std::isnan(r.energy_j));
  CHECK(r.frozen);
  CHECK(r.low_confidence);
}
