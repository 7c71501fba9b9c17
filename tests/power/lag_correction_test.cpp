// The lag correction of averaging rails against a known answer (DESIGN
// §4.2), in virtual time: an INA3221-like monitor publishes, every T, the
// mean of the true power over the last T and holds it; a sampler reads it
// every 10 ms. The true signal is idle, then a step up for the run, then
// idle. Energy over the run is compared with the exact integral, for the
// held values integrated as read (what edpbench did before) and corrected,
// over every phase of the run's start within the update period.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "power/integrate.h"
#include "power/lag_correction.h"
#include "power/update_interval.h"

using edp::power::LagCorrector;
using edp::power::RailIntegrator;
using edp::power::robust_update_interval;
using edp::power::ValueKind;

namespace {

struct Step {
  double idle_w, run_w, t0, t1;
  double at(double t) const { return t >= t0 && t < t1 ? run_w : idle_w; }
  // Exact mean over [a, b].
  double mean(double a, double b) const {
    const double lo = std::max(a, t0), hi = std::min(b, t1);
    const double run = hi > lo ? hi - lo : 0;
    return (run * run_w + (b - a - run) * idle_w) / (b - a);
  }
};

struct LagResult {
  double corrected_error, uncorrected_error;  // relative
};

// Monitor: updates at phase + k*T with the mean over the last T; sampler reads
// every dt starting at 0. The window is [s.t0, s.t1], closed as the sampler
// would: the corrector gets readings until it is resolved.
LagResult simulate(const Step& s, double T, double phase, double dt = 0.01) {
  auto held = [&](double t) {
    const double k = std::floor((t - phase) / T);
    const double u = phase + k * T;
    return s.mean(u - T, u);
  };
  RailIntegrator plain(ValueKind::power_w, s.t0);
  LagCorrector lag(s.t0, T);
  plain.set_end(s.t1);
  bool ended = false;
  double t_before = -1;
  for (double t = 0; t < s.t0; t += dt) t_before = t;
  plain.add(t_before, held(t_before));
  lag.add(t_before, held(t_before));
  for (double t = t_before + dt;; t += dt) {
    if (!ended && t >= s.t1) {
      lag.set_end(s.t1);
      ended = true;
    }
    plain.add(t, held(t));
    lag.add(t, held(t));
    if (ended && lag.resolved()) break;
    REQUIRE(t < s.t1 + 10 * T);  // resolves within a bounded wait
  }
  const double truth = s.run_w * (s.t1 - s.t0);
  return {lag.energy_j() / truth - 1, plain.finish().energy_j / truth - 1};
}

struct Worst {
  double corrected = 0, uncorrected = 0;
};

Worst over_phases(double run_s, double T, double idle_w = 2.0, double run_w = 8.0) {
  Worst w;
  for (int p = 0; p < 20; ++p) {
    const double phase = T * p / 20.0;
    const Step s{idle_w, run_w, 5.0 + 0.0037, 5.0 + 0.0037 + run_s};
    const LagResult r = simulate(s, T, phase);
    w.corrected = std::max(w.corrected, std::fabs(r.corrected_error));
    w.uncorrected = std::max(w.uncorrected, std::fabs(r.uncorrected_error));
  }
  return w;
}

}  // namespace

TEST_CASE("lag correction recovers a step's energy within 3% from 2 s up, at every phase",
          "[power][lag]") {
  const double T = 0.43;  // a TX2 INA3221's update interval
  std::printf("run_s  worst uncorrected  worst corrected   (T = %.2f s, idle 2 W, run 8 W)\n", T);
  for (double run_s : {0.5, 1.0, 2.0, 4.0, 10.0}) {
    const Worst w = over_phases(run_s, T);
    std::printf("%5.1f  %16.1f%%  %14.2f%%\n", run_s, 100 * w.uncorrected, 100 * w.corrected);
    INFO("run " << run_s << " s: corrected " << w.corrected << ", uncorrected " << w.uncorrected);
    if (run_s >= 2) CHECK(w.corrected < 0.03);
    // The correction is what makes the difference: as read, the error is
    // about (8 - 2) W x T / (8 W x run_s).
    CHECK(w.uncorrected > 0.5 * 6 * T / (8 * run_s));
    CHECK(w.corrected < w.uncorrected);
  }
}

TEST_CASE("lag correction holds for runs shorter than one update period", "[power][lag]") {
  const Worst w = over_phases(0.2, 0.43);
  CHECK(w.corrected < 0.10);
  CHECK(w.uncorrected > 0.5);
}

TEST_CASE("lag correction leaves a constant signal unchanged", "[power][lag]") {
  // Back-to-back runs: the power does not change at the edges, so neither
  // the shift nor the edge terms may move energy.
  for (int p = 0; p < 10; ++p) {
    const Step s{5.0, 5.0, 3.0, 5.5};
    const LagResult r = simulate(s, 0.43, 0.043 * p);
    CHECK(std::fabs(r.corrected_error) < 1e-9);
  }
}

TEST_CASE("lag correction of a step down gives the energy of the run, not of what followed",
          "[power][lag]") {
  // Heavy work before the window, idle-level work inside it.
  for (int p = 0; p < 10; ++p) {
    const double T = 0.43, phase = T * p / 10;
    auto held = [&](double t, double t_drop) {
      const double u = phase + std::floor((t - phase) / T) * T;
      const double lo = u - T, hi = u;
      const double high = std::max(0.0, std::min(hi, t_drop) - lo);
      return (high * 9.0 + (hi - lo - high) * 3.0) / T;
    };
    const double t0 = 4.0, t1 = 7.0;
    LagCorrector lag(t0, T);
    double t = 0;
    for (; t < t0; t += 0.01) {
    }
    lag.add(t - 0.01, held(t - 0.01, t0));
    bool ended = false;
    for (;; t += 0.01) {
      if (!ended && t >= t1) {
        lag.set_end(t1);
        ended = true;
      }
      lag.add(t, held(t, t0));
      if (ended && lag.resolved()) break;
    }
    CHECK(lag.energy_j() == Approx(3.0 * (t1 - t0)).epsilon(0.01));
  }
}

TEST_CASE("update interval: the median gap decides, a hidden update counts twice",
          "[power][interval]") {
  // Updates every 0.43 s, read every 10 ms (jitter), one repeated value hides
  // the update at 1.72 s.
  const std::vector<double> t{0.005, 0.435, 0.865, 1.295, 2.155, 2.585, 3.015};
  CHECK(robust_update_interval(t.data(), t.size()) == Approx(0.43).epsilon(0.005));
  // The naive mean of the gaps is what the old estimate gave.
  const double naive = (t.back() - t.front()) / (t.size() - 1);
  CHECK(naive > 0.5);
}

TEST_CASE("update interval is unknown from fewer than three changes", "[power][interval]") {
  const std::vector<double> t{1.0, 1.4};
  CHECK(robust_update_interval(t.data(), t.size()) == 0);
  CHECK(robust_update_interval(nullptr, 0) == 0);
}

TEST_CASE("update interval: most updates hidden by repeated values still gives T",
          "[power][interval]") {
  // T = 0.4 s, and 3 of every 5 updates repeat the previous value: gaps of
  // 0.4, 1.2 (x2)... The median gap is a multiple of T; the lower quartile is not.
  std::vector<double> t{0.0};
  const double gaps[] = {0.4, 1.2, 0.4, 0.8, 1.2, 0.4, 1.6, 0.4, 1.2, 0.8, 0.4, 1.2};
  for (double g : gaps) t.push_back(t.back() + g);
  CHECK(robust_update_interval(t.data(), t.size()) == Approx(0.4).epsilon(0.01));
}

namespace {

// A window [t0, t1] of a sensor whose held value at t is held(t), read every
// 10 ms from the last reading before t0 until the correction is resolved.
template <class Held>
LagCorrector read_window(Held held, double t0, double t1, double T) {
  LagCorrector lag(t0, T);
  double t = 0;
  for (; t + 0.01 < t0; t += 0.01) {
  }
  lag.add(t, held(t));  // the last reading before t0
  bool ended = false;
  for (t += 0.01;; t += 0.01) {
    if (!ended && t >= t1) {
      lag.set_end(t1);
      ended = true;
    }
    lag.add(t, held(t));
    if (ended && lag.resolved()) break;
    REQUIRE(t < t1 + 10 * T);
  }
  return lag;
}

}  // namespace

TEST_CASE("lag correction is bounded where the power changed near an edge but not at it",
          "[power][lag]") {
  // 20 W, then 0.5 W over [4.0, 8.8), then 20 W again; the window [4.301,
  // 8.5] opens 0.3 s after the drop and closes 0.3 s before the rise, so the
  // periods straddling its edges mix the two powers. The edge terms assume
  // the change happened at the edge: unbounded, they took 20 W x 0.3 s from
  // a period that held 0.2 J, and the window read -3.8 J against 2.1 J
  // (found by review). Bounded, each straddling period gives the window
  // between none and all of its measured energy: never below zero, the error
  // at most those two periods' energy, and the window says it was bounded.
  const double T = 0.4, lo_from = 4.0, lo_to = 8.8, t0 = 4.301, t1 = 8.5;
  auto mean = [&](double a, double b) {  // exact mean of the signal over [a, b]
    const double low = std::max(0.0, std::min(b, lo_to) - std::max(a, lo_from));
    return (low * 0.5 + (b - a - low) * 20.0) / (b - a);
  };
  const double truth = 0.5 * (t1 - t0);
  int bounded = 0;
  double worst = 0;
  for (int p = 0; p < 20; ++p) {
    const double phase = T * p / 20.0;
    auto held = [&](double t) {
      const double u = phase + std::floor((t - phase) / T) * T;
      return mean(u - T, u);
    };
    const LagCorrector lag = read_window(held, t0, t1, T);
    // The periods that straddle the edges, as the sensor published them.
    const double u0 = phase + std::ceil((t0 - phase) / T) * T;
    const double u1 = phase + std::ceil((t1 - phase) / T) * T;
    const double bound = (mean(u0 - T, u0) + mean(u1 - T, u1)) * T;
    const double e = lag.energy_j();
    INFO("phase " << phase << ": " << e << " J against " << truth << " J, bound " << bound);
    CHECK(e >= 0);
    CHECK(std::fabs(e - truth) <= bound + 1e-9);
    bounded += lag.edges_bounded();
    worst = std::max(worst, std::fabs(e / truth - 1));
  }
  std::printf(
      "power changed 0.3 s inside both edges (T = 0.4 s): worst error %.1f%%, "
      "bounded at %d of 20 phases\n",
      100 * worst, bounded);
  CHECK(bounded > 0);
  CHECK(worst < 0.10);  // docs/lag-accuracy.md: 8.7% (unbounded: 527%)
}

TEST_CASE("lag correction: a steady power's noise at the edges is not a bounded edge",
          "[power][lag]") {
  // Back-to-back windows at a steady 5 W whose periods' means scatter by a
  // few percent: where t0 falls just before an update, the edge term can
  // overshoot its bound by the noise alone. That is no reason for doubt
  // (review: such windows were flagged, and were more accurate than the
  // unflagged ones); the flag is for what cuts off more than 1% of the
  // window's energy.
  const double T = 0.43, t0 = 5.0, t1 = 9.3;                                 // 10 periods
  auto mean_of_period = [](long k) { return 5.0 * (k % 2 ? 1.03 : 0.97); };  // +- 3%
  for (int p = 0; p < 40; ++p) {
    const double phase = T * p / 40.0;
    auto held = [&](double t) {
      return mean_of_period(static_cast<long>(std::floor((t - phase) / T)) + 1000);
    };
    const LagCorrector lag = read_window(held, t0, t1, T);
    INFO("phase " << phase);
    CHECK_FALSE(lag.edges_bounded());
    CHECK(lag.energy_j() == Approx(5.0 * (t1 - t0)).epsilon(0.05));
  }
}

TEST_CASE("lag correction of a step at the edges is not bounded", "[power][lag]") {
  // The case the correction is exact for: bounding must not touch it.
  for (int p = 0; p < 20; ++p) {
    const double T = 0.43;
    const Step s{2.0, 8.0, 5.0037, 7.0037};
    auto held = [&](double t) {
      const double phase = T * p / 20.0;
      const double u = phase + std::floor((t - phase) / T) * T;
      return s.mean(u - T, u);
    };
    const LagCorrector lag = read_window(held, s.t0, s.t1, T);
    INFO("phase " << p);
    CHECK_FALSE(lag.edges_bounded());
    CHECK(lag.energy_j() == Approx(8.0 * 2.0).epsilon(0.001));  // docs: -0.02% worst
  }
}
