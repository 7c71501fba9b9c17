// Energy integration (DESIGN §4), as pure data-in/data-out code.
//
// Power rails: trapezoid rule between successive valid readings, with linear
// interpolation at the window edges t0 and t1. Counter rails: the cumulative
// joules are interpolated linearly at t0 and t1 and differenced. A failed read
// (NaN) is skipped: the segment spans from the last valid reading to the next.
#pragma once

#include <cstddef>
#include <vector>

#include "power/measurement.h"
#include "power/sensor.h"

namespace edp::power {

struct TimedValue {
  double t_s;
  double value;  // NaN = failed read
};

// Streaming integrator of one rail over one window [t0, t1]. Memory is
// constant, so windows of hours cost nothing extra. Feed readings in time
// order, including the last one before t0 and the first one at or after t1.
class RailIntegrator {
 public:
  RailIntegrator(ValueKind kind, double t0_s);
  void set_end(double t1_s);  // t1 may be unknown (infinite) while readings arrive
  void add(double t_s, double value);
  // True once a valid reading at or after t1 arrived; later ones are ignored.
  bool closed() const { return closed_; }
  // Statistics for the window. An edge that no reading covers holds the
  // nearest power value (counters cannot be extrapolated) and shows as a gap.
  RailMeasurement finish() const;

 private:
  ValueKind kind_;
  double t0_, t1_;
  bool have_prev_ = false, closed_ = false;
  double tp_ = 0, vp_ = 0;
  double energy_j_ = 0;
  bool have_first_in_ = false;
  double t_first_in_ = 0, v_first_in_ = 0;  // first valid reading after t0 (no reading before)
  size_t samples_ = 0, changes_in_ = 0;
  bool have_last_in_ = false;
  double v_last_in_ = 0;
  double largest_gap_ = 0;
  size_t changes_ = 0;
  double t_first_change_ = 0, t_last_change_ = 0;
};

// Whole-vector convenience used by tests and offline analysis.
RailMeasurement integrate(const std::vector<TimedValue>& readings, ValueKind kind, double t0_s,
                          double t1_s);

}  // namespace edp::power
