#include "power/vip_channel.h"

#include <limits>

namespace edp::power {

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

}  // namespace edp::power
