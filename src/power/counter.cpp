// Unwrapped cumulative energy counter with a plausibility limit (see counter.h).
#include "power/counter.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace edp::power {
namespace {

// "%.0f" for raw counter values (integers), "%.3g" for watts and seconds.
std::string num(const char* fmt, double v) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), fmt, v);
  return buf;
}

}  // namespace

void EnergyCounter::start(double raw, double t_s) {
  last_raw_ = raw;
  last_t_ = t_s;
  total_raw_ = 0;
  have_refused_ = false;
}

double EnergyCounter::allowed_raw(double dt_s) const {
  if (!(spec_.max_power_w > 0)) return std::numeric_limits<double>::infinity();
  return spec_.max_power_w * (std::max(dt_s, 0.0) + spec_.slack_s) / spec_.unit_j;
}

EnergyCounter::Step EnergyCounter::feed(double raw, double t_s) noexcept {
  const double dt = t_s - last_t_;
  const double allowed = allowed_raw(dt);
  if (raw >= last_raw_) {
    const double step = raw - last_raw_;
    if (step <= allowed) {
      total_raw_ += step;
      last_raw_ = raw;
      last_t_ = t_s;
      have_refused_ = false;
      return Step::accepted;
    }
    return refuse(raw, t_s,
                  "rose by " + num("%.0f", step) + " " + spec_.unit + " in " + num("%.3g", dt) +
                      " s, implying " + num("%.3g", step * spec_.unit_j / std::max(dt, 1e-9)) +
                      " W");
  }
  if (spec_.max_range > 0 && last_raw_ <= spec_.max_range) {
    const double step = spec_.max_range - last_raw_ + raw;
    if (step <= allowed) {
      total_raw_ += step;
      last_raw_ = raw;
      last_t_ = t_s;
      have_refused_ = false;
      return Step::wrapped;
    }
  }
  if (spec_.resets_to_zero && raw <= allowed) {
    ++anomalies_;
    last_anomaly_ = spec_.rail + ": counter reset from " + num("%.0f", last_raw_) + " to " +
                    num("%.0f", raw) + " " + spec_.unit +
                    " (driver reload or device reset?): baseline restarted, the energy since the "
                    "previous reading is not counted";
    last_raw_ = raw;
    last_t_ = t_s;
    have_refused_ = false;
    return Step::reset;
  }
  std::string why = "went back from " + num("%.0f", last_raw_) + " to " + num("%.0f", raw) + " " +
                    spec_.unit + " in " + num("%.3g", dt) + " s";
  if (spec_.max_range > 0)
    why += " (as a wrap at " + num("%.0f", spec_.max_range) + ", implying " +
           num("%.3g", (spec_.max_range - last_raw_ + raw) * spec_.unit_j / std::max(dt, 1e-9)) +
           " W)";
  return refuse(raw, t_s, why);
}

EnergyCounter::Step EnergyCounter::refuse(double raw, double t_s, const std::string& why) noexcept {
  ++anomalies_;
  // Two refused readings in a row that agree with each other: the counter
  // really is at a new level. Restart the baseline there, adding nothing.
  if (have_refused_ && raw >= refused_raw_ && raw - refused_raw_ <= allowed_raw(t_s - refused_t_)) {
    last_anomaly_ = spec_.rail + ": counter " + why + " and stays at its new level: baseline " +
                    "restarted, the energy since the last accepted reading is not counted";
    last_raw_ = raw;
    last_t_ = t_s;
    have_refused_ = false;
    return Step::rebased;
  }
  last_anomaly_ =
      spec_.rail + ": counter " + why +
      (spec_.max_power_w > 0
           ? ", more than the plausible " + num("%.6g", spec_.max_power_w) + " W of this rail"
           : std::string(", impossible for a counter that neither wraps nor resets")) +
      ": glitch, reading discarded";
  have_refused_ = true;
  refused_raw_ = raw;
  refused_t_ = t_s;
  return Step::glitch;
}

}  // namespace edp::power
