// measure's summary (bench/measure/measure_report.h) from runs built by hand: what
// it prints for a spread that reaches below zero, and how it rounds.
#include <catch2/catch.hpp>

#include "bench/measure/measure_report.h"

using edp::bench::CommandRun;
using edp::bench::MeasureReport;

namespace {

MeasureReport two_runs(double e1, double e2) {
  MeasureReport rep;
  rep.command = "work";
  rep.source = "trace";
  rep.total_rails = {"VDD_IN"};
  rep.metered = true;
  int n = 0;
  for (double e : {e1, e2}) {
    CommandRun c;
    c.record.run = ++n;
    c.record.time_s = 1.0 + 0.001 * n;
    c.record.energy_j = e;
    c.record.power_w_mean = e / c.record.time_s;
    c.record.edp_js = e * c.record.time_s;
    rep.runs.push_back(c);
  }
  return rep;
}

}  // namespace

TEST_CASE(
    "measure summary: a CI of a non-negative quantity that reaches below 0 is clipped, and says so",
    "[bench][measure]") {
  // Two runs, 0.010 J and 0.500 J: mean 0.255 J, 95% CI half-width 3.11 J
  // (t = 12.71, n = 2), given to two significant digits. Before issue 35 it
  // printed "95% CI [-2.86, 3.37]".
  const std::string s = edp::bench::measure_summary(two_runs(0.010, 0.500));
  INFO(s);
  CHECK_THAT(s, Catch::Contains("0.3 J \xC2\xB1 3.1 J *"));
  CHECK_THAT(s, Catch::Contains("* the 95% CI reaches below 0, which these cannot: clipped, it "
                                "is energy [0, 3.4 J]"));
  CHECK_THAT(s, !Catch::Contains("-2.8"));
}

TEST_CASE("measure summary: two significant digits of the CI, never finer than the sensor",
          "[bench][measure]") {
  const std::string s = edp::bench::measure_summary(two_runs(7.5001234, 7.5001299));
  INFO(s);
  // CI 0.00004 J is finer than the millijoule a power sensor resolves.
  CHECK_THAT(s, Catch::Contains("7.500 J \xC2\xB1 0.000 J"));
  // One run: the value alone, four significant digits.
  MeasureReport one = two_runs(7.5001234, 1);
  one.runs.pop_back();
  CHECK_THAT(edp::bench::measure_summary(one),
             Catch::Contains("7.500 J") && !Catch::Contains("\xC2\xB1"));
}
