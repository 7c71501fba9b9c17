// The unwrapped energy counter with a plausibility limit (power/counter.h),
// fed with explicit times. Raw values are integers, so accepted energy is
// exact.
#include <catch2/catch.hpp>

#include "power/counter.h"

using namespace edp::power;

namespace {

// A RAPL package: uJ, wraps at max_energy_range_uj, 1000 W limit.
CounterSpec rapl_package() {
  CounterSpec s;
  s.rail = "package-0";
  s.unit = "uJ";
  s.unit_j = 1e-6;
  s.max_range = 262143328850;
  s.max_power_w = 1000;
  s.slack_s = 0.05;
  return s;
}

// An NVML GPU: mJ, 64-bit (never wraps), can reset to zero.
CounterSpec nvml_gpu() {
  CounterSpec s;
  s.rail = "gpu0";
  s.unit = "mJ";
  s.unit_j = 1e-3;
  s.max_power_w = 1400;
  s.slack_s = 0.5;
  s.resets_to_zero = true;
  return s;
}

}  // namespace

TEST_CASE("counter: a single spurious low read adds nothing and is counted", "[counter]") {
  EnergyCounter c(rapl_package());
  c.start(72533118051, 0.0);
  CHECK(c.feed(72533128051, 0.01) == EnergyCounter::Step::accepted);  // +10 mJ
  CHECK(c.joules() == 10000 * 1e-6);
  // Taken as a wrap this would be ~190 kJ in 10 ms.
  CHECK(c.feed(5, 0.02) == EnergyCounter::Step::glitch);
  CHECK(c.joules() == 10000 * 1e-6);
  CHECK(c.anomalies() == 1);
  CHECK_THAT(c.last_anomaly(), Catch::Contains("package-0") && Catch::Contains("glitch") &&
                                   Catch::Contains("1000 W"));
  // The next normal read is differenced against the last accepted one.
  CHECK(c.feed(72533148051, 0.03) == EnergyCounter::Step::accepted);
  CHECK(c.joules() == 30000 * 1e-6);
  CHECK(c.anomalies() == 1);
}

TEST_CASE("counter: a real wraparound is unwrapped exactly", "[counter]") {
  EnergyCounter c(rapl_package());
  c.start(262143300000, 0.0);  // 28850 uJ below the wrap
  CHECK(c.feed(671150, 0.01) == EnergyCounter::Step::wrapped);
  CHECK(c.joules() == 700000 * 1e-6);  // 28850 + 671150 uJ in 10 ms: 70 W
  CHECK(c.anomalies() == 0);
  CHECK(c.feed(1671150, 0.02) == EnergyCounter::Step::accepted);
  CHECK(c.joules() == 1700000 * 1e-6);
}

TEST_CASE("counter: a step implying more than the limit is refused", "[counter]") {
  CounterSpec s = rapl_package();
  s.max_power_w = 100;
  s.slack_s = 0;
  EnergyCounter c(s);
  c.start(0, 0.0);
  CHECK(c.feed(1000000, 0.001) == EnergyCounter::Step::glitch);  // 1 J in 1 ms: 1000 W
  CHECK(c.joules() == 0);
  CHECK(c.anomalies() == 1);
  CHECK_THAT(c.last_anomaly(), Catch::Contains("rose by 1000000 uJ") && Catch::Contains("100 W"));
  // Judged over the time since the last accepted reading: 100 J in 1 s is the limit itself.
  CHECK(c.feed(100000000, 1.0) == EnergyCounter::Step::accepted);
  CHECK(c.joules() == 100);
  // A wrap whose step implies too much is refused as well.
  CHECK(c.feed(1000, 1.01) == EnergyCounter::Step::glitch);
  CHECK(c.joules() == 100);
}

TEST_CASE("counter: the slack allows one update quantum between close reads", "[counter]") {
  EnergyCounter c(rapl_package());  // 1000 W x (dt + 50 ms)
  c.start(0, 0.0);
  CHECK(c.feed(61000, 0.00001) == EnergyCounter::Step::accepted);           // 61 mJ in 10 us
  CHECK(c.feed(61000 + 60000000, 0.00002) == EnergyCounter::Step::glitch);  // 60 J
}

TEST_CASE("counter: an NVML reset restarts the baseline without underflow", "[counter]") {
  EnergyCounter c(nvml_gpu());  // 1400 W x (dt + 0.5 s)
  c.start(5000000000, 0.0);     // 5 MJ since the driver loaded
  CHECK(c.feed(5000000500, 0.1) == EnergyCounter::Step::accepted);
  CHECK(c.joules() == 0.5);
  // Back to near zero (at most what the GPU can use since the last read).
  CHECK(c.feed(200, 0.2) == EnergyCounter::Step::reset);
  CHECK(c.joules() == 0.5);
  CHECK(c.anomalies() == 1);
  CHECK_THAT(c.last_anomaly(), Catch::Contains("gpu0: counter reset from 5000000500 to 200 mJ"));
  CHECK(c.feed(700, 0.3) == EnergyCounter::Step::accepted);
  CHECK(c.joules() == 1.0);
  CHECK(c.feed(2000700, 0.4) == EnergyCounter::Step::glitch);  // 2 kJ in 0.1 s
  CHECK(c.joules() == 1.0);
  CHECK(c.anomalies() == 2);

  // Backwards, but not to near zero: neither a wrap nor a reset.
  EnergyCounter d(nvml_gpu());
  d.start(5000000000, 0.0);
  CHECK(d.feed(3000000000, 0.1) == EnergyCounter::Step::glitch);
  CHECK(d.joules() == 0);
  CHECK(d.feed(5000000500, 0.2) == EnergyCounter::Step::accepted);
  CHECK(d.joules() == 0.5);
}

TEST_CASE("counter: a counter that stays at a new level is re-baselined", "[counter]") {
  EnergyCounter c(rapl_package());
  c.start(100000000000, 0.0);
  CHECK(c.feed(500000, 0.01) == EnergyCounter::Step::glitch);
  CHECK(c.feed(510000, 0.02) == EnergyCounter::Step::rebased);  // agrees with the refused one
  CHECK(c.joules() == 0);
  CHECK(c.feed(520000, 0.03) == EnergyCounter::Step::accepted);
  CHECK(c.joules() == 10000 * 1e-6);
  CHECK(c.anomalies() == 2);
  CHECK_THAT(c.last_anomaly(), Catch::Contains("stays at its new level"));
}

TEST_CASE("counter: without a limit every forward step counts", "[counter]") {
  CounterSpec s = rapl_package();
  s.max_power_w = 0;
  EnergyCounter c(s);
  c.start(0, 0.0);
  CHECK(c.feed(1e12, 0.0) == EnergyCounter::Step::accepted);
  CHECK(c.joules() == 1e6);
}
