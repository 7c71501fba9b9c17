// Integration of synthetic signals with known energy (DESIGN §4): trapezoid
// rule for power, differencing for counters, interpolation at window edges.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <vector>

#include "power/integrate.h"

using edp::power::integrate;
using edp::power::TimedValue;
using edp::power::ValueKind;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

template <typename F>
std::vector<TimedValue> sample(F f, double from, double to, double dt, double phase = 0) {
  std::vector<TimedValue> v;
  for (double t = from + phase; t <= to + 1e-12; t += dt) v.push_back({t, f(t)});
  return v;
}

bool within(double value, double expected, double relative) {
  return std::fabs(value - expected) <= relative * std::fabs(expected);
}

}  // namespace

TEST_CASE("constant power integrates to power times window length", "[integrate]") {
  auto s = sample([](double) { return 4.5; }, 0, 10, 0.01);
  auto m = integrate(s, ValueKind::power_w, 1.234, 7.891);
  CHECK(m.energy_j == Approx(4.5 * (7.891 - 1.234)).epsilon(1e-12));
  CHECK(m.power_w_mean == Approx(4.5));
  CHECK(m.distinct_values == 1);
  CHECK(m.update_interval_s == 0);
}

TEST_CASE("ramp sampled sparsely is exact thanks to edge interpolation", "[integrate]") {
  // P(t) = 2 + 0.5 t, read every 0.4 s; window edges fall between readings.
  auto p = [](double t) { return 2 + 0.5 * t; };
  auto s = sample(p, 0, 10, 0.4);
  const double t0 = 0.13, t1 = 7.77;
  const double exact = 2 * (t1 - t0) + 0.25 * (t1 * t1 - t0 * t0);
  auto m = integrate(s, ValueKind::power_w, t0, t1);
  CHECK(m.energy_j == Approx(exact).epsilon(1e-9));
  CHECK(m.largest_gap_s == Approx(0.4));
  CHECK(m.samples == 19);  // readings at 0.4 .. 7.6
}

TEST_CASE("square wave sampled at 1 kHz is within 0.5 percent", "[integrate]") {
  // 2 W / 6 W alternating every 0.5 s; readings not aligned with the edges.
  auto p = [](double t) { return std::fmod(t, 1.0) < 0.5 ? 2.0 : 6.0; };
  auto s = sample(p, 0, 12, 0.001, 0.00037);
  auto m = integrate(s, ValueKind::power_w, 1.0, 11.0);
  const double exact = 10 * (0.5 * 2 + 0.5 * 6);
  CHECK(within(m.energy_j, exact, 0.005));
  CHECK(m.distinct_values == 20);  // 19 edges strictly inside the window
}

TEST_CASE("sine wave sampled at 100 Hz is within 0.5 percent", "[integrate]") {
  const double pi = std::acos(-1.0);
  auto p = [pi](double t) { return 5 + 2 * std::sin(2 * pi * 0.7 * t); };
  auto s = sample(p, 0, 30, 0.01, 0.003);
  const double t0 = 2.0, t1 = 27.5;
  auto prim = [pi](double t) { return 5 * t - 2 * std::cos(2 * pi * 0.7 * t) / (2 * pi * 0.7); };
  CHECK(within(integrate(s, ValueKind::power_w, t0, t1).energy_j, prim(t1) - prim(t0), 0.005));
}

TEST_CASE("staircase from a slow sensor reports its update interval", "[integrate]") {
  // A TX2-like sensor updating every 0.4 s, read at 100 Hz.
  auto p = [](double t) { return 3.0 + std::floor(t / 0.4) * 0.1; };
  auto s = sample(p, 0, 8, 0.01, 0.005);
  auto m = integrate(s, ValueKind::power_w, 0.5, 7.5);
  CHECK(m.update_interval_s == Approx(0.4).margin(0.011));
  CHECK(m.distinct_values == 18);  // values of steps 1..18 seen between 0.5 and 7.5 s
  CHECK(m.samples == 700);
}

TEST_CASE("counters are differenced and interpolated at the edges", "[integrate]") {
  // 1 J every 0.1 s = 10 W, read every 0.1 s.
  auto s = sample([](double t) { return 1000 + 10 * t; }, 0, 5, 0.1);
  auto m = integrate(s, ValueKind::energy_j, 0.25, 4.05);
  CHECK(m.energy_j == Approx(38.0).epsilon(1e-9));
  CHECK(m.power_w_mean == Approx(10.0).epsilon(1e-9));
}

TEST_CASE("failed reads are skipped and show as a gap", "[integrate]") {
  std::vector<TimedValue> s = {{0, 2}, {1, 2}, {2, kNaN}, {3, kNaN}, {4, 2}, {5, 2}};
  auto m = integrate(s, ValueKind::power_w, 0.5, 4.5);
  CHECK(m.energy_j == Approx(8.0));
  CHECK(m.largest_gap_s == Approx(3.0));
  CHECK(m.samples == 2);
}

TEST_CASE("a window edge no reading covers holds the nearest value", "[integrate]") {
  std::vector<TimedValue> s = {{1.0, 3}, {2.0, 3}};
  auto m = integrate(s, ValueKind::power_w, 0.0, 3.0);
  CHECK(m.energy_j == Approx(9.0));
  CHECK(m.largest_gap_s == Approx(1.0));
}

TEST_CASE("a rail without any reading has NaN energy", "[integrate]") {
  auto m = integrate({}, ValueKind::power_w, 0, 1);
  CHECK(std::isnan(m.energy_j));
  CHECK(m.samples == 0);
}

TEST_CASE("the streaming integrator ignores readings after the closing one", "[integrate]") {
  edp::power::RailIntegrator in(ValueKind::power_w, 0.0);
  in.add(-0.1, 1);
  in.add(0.5, 1);
  in.set_end(1.0);
  in.add(1.2, 1);
  CHECK(in.closed());
  in.add(1.4, 100);
  CHECK(in.finish().energy_j == Approx(1.0));
}

TEST_CASE("a ten-hour window at 100 Hz streams in constant memory", "[integrate]") {
  // 3.6 million readings of P(t) = 5 + sin(t) through one RailIntegrator.
  edp::power::RailIntegrator in(ValueKind::power_w, 0.5);
  const double t1 = 36000.5;
  in.set_end(t1);
  for (long i = 0; i <= 3600100; ++i) {
    const double t = i * 0.01;
    in.add(t, 5 + std::sin(t));
    if (in.closed()) break;
  }
  const double exact = 5 * (t1 - 0.5) - (std::cos(t1) - std::cos(0.5));
  const auto m = in.finish();
  CHECK(within(m.energy_j, exact, 1e-6));
  CHECK(m.samples == 3600001);
}
