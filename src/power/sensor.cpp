// Defaults shared by all sensors.
#include <cmath>
#include <limits>

#include "power/sensor.h"

namespace edp::power {

const char* timing_name(Timing t) {
  switch (t) {
    case Timing::counter:
      return "counter";
    case Timing::instantaneous:
      return "instantaneous";
    case Timing::averaging:
      return "averaging";
  }
  return "?";
}

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

}  // namespace edp::power
