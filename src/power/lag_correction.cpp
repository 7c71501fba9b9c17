// Lag correction of averaging rails (see lag_correction.h).
#include "power/lag_correction.h"

#include <algorithm>
#include <cmath>

namespace edp::power {

LagCorrector::LagCorrector(double t0_s, double period_s)
    : t0_(t0_s), period_(period_s), shifted_(ValueKind::power_w, t0_s + period_s) {}

void LagCorrector::set_end(double t1_s) {
  t1_ = t1_s;
  shifted_.set_end(t1_s + period_);
}

void LagCorrector::add(double t, double v) {
  if (std::isnan(v)) return;
  shifted_.add(t, v);
  if (!have_prev_) {
    prev_before_t0_ = t < t0_;
  } else if (v != v_prev_) {
    const double u = (t_prev_ + t) / 2;  // the update happened between the two reads
    if (!have_start_ && u > t0_) {
      have_start_ = true;
      u_start_ = u;
      v_start_ = v;
      v_before_ = v_prev_;
    }
    if (have_end_ && !have_next_) {
      have_next_ = true;
      u_next_ = u;
      v_next_ = v;
    } else if (!have_end_ && u >= t1_) {
      have_end_ = true;
      u_end_ = u;
      v_end_ = v;
    }
  }
  have_prev_ = true;
  t_prev_ = t;
  v_prev_ = v;
  t_last_ = t;
}

bool LagCorrector::resolved() const {
  if (!std::isfinite(t1_)) return false;
  if (t_last_ >= deadline_s()) return true;
  if (!shifted_.closed()) return false;
  return have_end_ && (have_next_ || t_last_ >= u_end_ + 1.5 * period_);
}

namespace {

// An edge term d for a period of mean power v and length T of which `out`
// lies outside the window: the share the window keeps, v (T - out) + d, is
// bounded by what the sensor measured over the period, between 0 and v T
// (no power below zero inside the window or outside it). Beyond those
// bounds the power did not change at the edge, as the correction assumes,
// but elsewhere in the period (or the periods' noise overshot it, where the
// power did not change at all): the term is clamped and what was cut off
// is added to *excess_j.
double bounded_edge(double d, double v, double period, double out, double* excess_j) {
  const double kept = v * (period - out);
  const double lo = std::min(0.0, v * period) - kept, hi = std::max(0.0, v * period) - kept;
  if (d >= lo && d <= hi) return d;
  const double clamped = d < lo ? lo : hi;
  *excess_j += std::fabs(d - clamped);
  return clamped;
}

}  // namespace

LagCorrector::Edges LagCorrector::edges() const {
  Edges e;
  // The period straddling t0: its part before t0 ran at the power held then.
  if (have_start_ && prev_before_t0_ && u_start_ - period_ < t0_) {
    const double out = t0_ - (u_start_ - period_);
    e.start_j = bounded_edge((v_start_ - v_before_) * out, v_start_, period_, out, &e.excess_j);
  }
  // The period straddling t1: its part after t1 ran at the next period's power
  // (the same value when no update followed within 1.5 T).
  if (have_end_ && u_end_ - period_ < t1_) {
    const double v_after = have_next_ && u_next_ - u_end_ < 1.5 * period_ ? v_next_ : v_end_;
    const double out = std::min(period_, u_end_ - t1_);
    e.end_j = bounded_edge((v_end_ - v_after) * out, v_end_, period_, out, &e.excess_j);
  }
  return e;
}

double LagCorrector::energy_j() const {
  const double e = shifted_.finish().energy_j;
  if (std::isnan(e)) return e;
  const Edges d = edges();
  return e + d.start_j + d.end_j;
}

bool LagCorrector::edges_bounded() const {
  const double shifted = shifted_.finish().energy_j;
  if (std::isnan(shifted)) return false;
  const Edges d = edges();
  return d.excess_j > kBoundedShare * std::fabs(shifted + d.start_j + d.end_j);
}

}  // namespace edp::power
