// A window's sums over rails (Measurement, power/measurement.h).
#include "power/measurement.h"

#include <limits>

namespace edp::power {

double Measurement::energy_j(const std::vector<std::string>& wanted) const {
  double sum = 0;
  if (wanted.empty()) {
    if (rails.empty()) return std::numeric_limits<double>::quiet_NaN();
    for (const auto& r : rails) sum += r.energy_j;
    return sum;
  }
  for (const auto& name : wanted) {
    const RailMeasurement* found = nullptr;
    for (const auto& r : rails)
      if (r.rail == name) found = &r;
    if (!found) return std::numeric_limits<double>::quiet_NaN();
    sum += found->energy_j;
  }
  return sum;
}

double Measurement::power_w_mean(const std::vector<std::string>& wanted) const {
  const double span = t1_s - t0_s;
  if (!(span > 0)) return std::numeric_limits<double>::quiet_NaN();
  return energy_j(wanted) / span;
}

}  // namespace edp::power
