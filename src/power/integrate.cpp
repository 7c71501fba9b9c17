// Trapezoid integration of power and differencing of counters (see integrate.h).
#include "power/integrate.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace edp::power {

RailIntegrator::RailIntegrator(ValueKind kind, double t0_s)
    : kind_(kind), t0_(t0_s), t1_(std::numeric_limits<double>::infinity()) {}

void RailIntegrator::set_end(double t1_s) { t1_ = t1_s; }

void RailIntegrator::add(double t, double v) {
  if (closed_ || std::isnan(v)) return;
  if (have_prev_ && v != vp_) {
    ++changes_;
    if (changes_ == 1) t_first_change_ = t;
    t_last_change_ = t;
  }
  if (t < t0_) {
    tp_ = t;
    vp_ = v;
    have_prev_ = true;
    return;
  }
  if (t <= t1_) {
    ++samples_;
    if (have_last_in_ && v != v_last_in_) ++changes_in_;
    v_last_in_ = v;
    have_last_in_ = true;
  }
  if (have_prev_) {
    const double a = std::max(tp_, t0_), b = std::min(t, t1_);
    if (b > a) {
      const double span = t - tp_;
      if (kind_ == ValueKind::power_w) {
        const double va = vp_ + (v - vp_) * (a - tp_) / span;
        const double vb = vp_ + (v - vp_) * (b - tp_) / span;
        energy_j_ += (b - a) * (va + vb) / 2;
      } else {
        energy_j_ += (v - vp_) * (b - a) / span;
      }
    }
    largest_gap_ = std::max(largest_gap_, t - tp_);
  } else {
    have_first_in_ = true;
    t_first_in_ = t;
    v_first_in_ = v;
    largest_gap_ = std::max(largest_gap_, std::min(t, t1_) - t0_);
  }
  if (t >= t1_) closed_ = true;
  tp_ = t;
  vp_ = v;
  have_prev_ = true;
}

RailMeasurement RailIntegrator::finish() const {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  RailMeasurement m{};
  m.energy_j = nan;
  m.power_w_mean = nan;
  m.samples = samples_;
  m.distinct_values = samples_ > 0 ? 1 + changes_in_ : 0;
  m.largest_gap_s = largest_gap_;
  m.update_interval_s =
      changes_ >= 2 ? (t_last_change_ - t_first_change_) / static_cast<double>(changes_ - 1) : 0;
  if (!have_prev_) {
    m.largest_gap_s = std::isfinite(t1_) ? t1_ - t0_ : 0;
    return m;
  }
  double energy = energy_j_;
  if (kind_ == ValueKind::power_w && have_first_in_) {
    energy += v_first_in_ * (std::min(t_first_in_, t1_) - t0_);  // hold back to t0
  }
  if (!closed_ && std::isfinite(t1_)) {
    if (kind_ == ValueKind::power_w) energy += vp_ * (t1_ - std::max(tp_, t0_));  // hold to t1
    m.largest_gap_s = std::max(m.largest_gap_s, t1_ - tp_);
  }
  m.energy_j = energy;
  const double span = t1_ - t0_;
  m.power_w_mean = span > 0 ? energy / span : (kind_ == ValueKind::power_w ? vp_ : nan);
  return m;
}

RailMeasurement integrate(const std::vector<TimedValue>& readings, ValueKind kind, double t0_s,
                          double t1_s) {
  RailIntegrator integrator(kind, t0_s);
  integrator.set_end(t1_s);
  // Only the last reading before t0 matters for the leading edge.
  size_t first = 0;
  for (size_t i = 0; i < readings.size(); ++i) {
    if (readings[i].t_s < t0_s && !std::isnan(readings[i].value)) first = i;
  }
  for (size_t i = first; i < readings.size(); ++i)
    integrator.add(readings[i].t_s, readings[i].value);
  return integrator.finish();
}

}  // namespace edp::power
