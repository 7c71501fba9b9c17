// Lag correction of an averaging rail over one energy window (DESIGN §4.2).
//
// An averaging monitor publishes, at each update u, the mean power over
// [u - T, u] and holds it until the next update. Integrated as read, a run
// that starts from idle loses about (P_run - P_idle) x T: its first period
// of load is reported only after the run has gone on for T, and its last
// one after it ended. The correction has two parts.
//
// 1. Shift. The value published at u is moved back to the period it
//    describes. With held signal S(t), the reconstruction is S(t + T), so the
//    window [t0, t1] integrates S over [t0 + T, t1 + T]: the sampler keeps
//    the window open until readings past t1 + T have arrived.
// 2. Edges. The period that straddles t0 mixes what ran before t0 with the
//    run; the shift alone credits the whole mixture to the window in
//    proportion to time, losing up to (P_run - P_idle) x T / 4 per edge.
//    The part of that period before t0 is assumed to run at the previous
//    period's power (the value held at t0), and the rest of the period's
//    energy, which the sensor measured, goes into the window:
//      dE0 = (v_start - v_before) x (t0 - (u_start - T)),
//    and likewise at t1 with the period after:
//      dE1 = (v_end - v_after) x (u_end - t1).
//    For a step this is exact; for a run whose power does not change at its
//    edges (back-to-back runs) both terms vanish.
//
// Each edge term is bounded (bounded_edge in the .cpp): the window's share
// of a straddling period stays between 0 and the energy the sensor measured
// over that period. A term at its bound means the power changed within one
// period of the edge but not at it, where the assumption fails; the error
// left is then at most that period's energy, and edges_bounded() says so
// (the window is low confidence, run_evidence.cpp) when what the bound cut
// off is more than kBoundedShare of the window's energy. Below that it is
// the periods' noise on a power that did not change (back-to-back windows
// at a steady power: review found such windows flagged, and more accurate
// than the unflagged ones).
//
// Update times are estimated as the midpoint between the last reading with
// the old value and the first with the new one (half a sampling period of
// uncertainty). An update that repeats the previous value is invisible; the
// formulas then fall back to the shifted integral, which is right when the
// power did not change. The error that remains against a known answer is
// shown in docs/lag-accuracy.md.
#pragma once

#include <limits>

#include "power/integrate.h"

namespace edp::power {

class LagCorrector {
 public:
  // period_s: the averaging period T (> 0).
  LagCorrector(double t0_s, double period_s);
  void set_end(double t1_s);
  // Every valid reading of the rail in time order, starting with the last
  // one before t0 (the value held when the window opened).
  void add(double t_s, double value);
  // True once the readings settle the correction: past t1 + T, and the
  // update that covers t1 and the one after it were seen (or 1.5 T went by
  // without one: a repeated value), or t1 + 2.5 T passed.
  bool resolved() const;
  // Readings needed until at most this time (for the sampler's wait).
  double deadline_s() const { return t1_ + 2.5 * period_; }
  // How long past its end a window typically stays open for the correction
  // (the update after t1 comes within one period, the one after it within
  // two; deadline_s bounds the wait): what `plan` budgets per run.
  static double typical_tail_s(double period_s) { return 2 * period_s; }
  double period_s() const { return period_; }
  // Lag-corrected energy over [t0, t1]; NaN when no reading was valid.
  double energy_j() const;
  // Whether the edge terms' bounds cut off more than kBoundedShare of the
  // window's energy (see above).
  bool edges_bounded() const;
  static constexpr double kBoundedShare = 0.01;

 private:
  struct Edges {
    double start_j = 0, end_j = 0;
    double excess_j = 0;  // what the bounds cut off the two terms
  };
  Edges edges() const;
  double t0_, t1_ = std::numeric_limits<double>::infinity(), period_;
  RailIntegrator shifted_;  // the held values over [t0 + T, t1 + T]
  bool have_prev_ = false, prev_before_t0_ = false;
  double t_prev_ = 0, v_prev_ = 0, t_last_ = -std::numeric_limits<double>::infinity();
  // Update points: the first after t0, the first at or after t1, the next.
  bool have_start_ = false, have_end_ = false, have_next_ = false;
  double v_before_ = 0, u_start_ = 0, v_start_ = 0, u_end_ = 0, v_end_ = 0, u_next_ = 0,
         v_next_ = 0;
};

}  // namespace edp::power
