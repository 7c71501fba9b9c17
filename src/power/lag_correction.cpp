// Lag correction of averaging rails (see lag_correction.h).
#include "power/lag_correction.h"

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

double LagCorrector::energy_j() const {
  double e = shifted_.finish().energy_j;
  if (std::isnan(e)) return e;
  // The period straddling t0: its part before t0 ran at the power held then.
  if (have_start_ && prev_before_t0_ && u_start_ - period_ < t0_)
    e += (v_start_ - v_before_) * (t0_ - (u_start_ - period_));
  // The period straddling t1: its part after t1 ran at the next period's power
  // (the same value when no update followed within 1.5 T).
  if (have_end_ && u_end_ - period_ < t1_) {
    const double v_after = have_next_ && u_next_ - u_end_ < 1.5 * period_ ? v_next_ : v_end_;
    e += (v_end_ - v_after) * (u_end_ - t1_);
  }
  return e;
}

}  // namespace edp::power
