// Defaults shared by all sensors, and the Measurement helpers.
#include <cmath>
#include <limits>

#include "power/measurement.h"
#include "power/sensor.h"

namespace edp::power {

size_t Sensor::read_detail(std::vector<RailReading>* out, std::string* error) noexcept {
  const auto& r = rails();
  std::vector<double> values(r.size());
  const size_t failed = read(values.data(), error);
  out->assign(r.size(), RailReading{});
  for (size_t i = 0; i < r.size(); ++i) {
    if (r[i].kind == ValueKind::power_w)
      (*out)[i].power_w = values[i];
    else
      (*out)[i].energy_j = values[i];
  }
  return failed;
}

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
