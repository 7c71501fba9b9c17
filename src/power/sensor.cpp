// Defaults shared by all sensors, and the Measurement helpers.
#include <cmath>
#include <limits>

#include "power/measurement.h"
#include "power/plausible.h"
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

const char* read_vip_channel(const FileHandle& voltage_mv, const FileHandle& current_ma,
                             const FileHandle& power, double power_to_w, bool detail,
                             RailReading* r, std::string* why, const ChannelRange* range) noexcept {
  long long mv = 0, ma = 0, p = 0;
  // A file gone or replaced would be read as its last value, held forever.
  auto same = [&](const FileHandle& f) { return (*why = f.replaced()).empty(); };
  if (detail || !power.valid()) {
    if (!voltage_mv.valid()) return *why = "no voltage file", "voltage";
    if (!same(voltage_mv) || !pread_integer(voltage_mv.get(), &mv, why)) return "voltage";
    if (!current_ma.valid()) return *why = "no current file", "current";
    if (!same(current_ma) || !pread_integer(current_ma.get(), &ma, why)) return "current";
    r->voltage_v = mv * 1e-3;
    r->current_a = ma * 1e-3;
  }
  if (power.valid()) {
    if (!same(power) || !pread_integer(power.get(), &p, why)) return "power";
    r->power_w = p * power_to_w;
  } else {
    r->power_w = (mv * 1e-3) * (ma * 1e-3);
  }
  if (range) {
    *why = outside_range(*range, *r);
    if (!why->empty()) {
      r->power_w = std::numeric_limits<double>::quiet_NaN();
      return "range";
    }
  }
  return nullptr;
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
