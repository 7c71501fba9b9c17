// The ranges of power monitor channels (see plausible.h).
#include "power/plausible.h"

#include <cmath>
#include <cstdio>

namespace edp::power {
namespace {

// The smallest shunt assumed when none is stated: 1 mOhm (see plausible.h).
constexpr double kSmallestShuntOhm = 1e-3;

struct Chip {
  const char* name;
  const char* datasheet;
  double shunt_fs_v;  // shunt-voltage full scale (+-)
  double bus_fs_v;    // bus-voltage register full scale
};

// Datasheet figures (TI), from the register descriptions: the shunt
// register's full scale (INA219-class at PGA /8) and the bus register's.
constexpr Chip kIna2xx[] = {
    {"ina209", "TI SBOS440", 0.320, 32.76},   {"ina219", "TI SBOS448", 0.320, 32.76},
    {"ina220", "TI SBOS459", 0.320, 32.76},   {"ina226", "TI SBOS547", 0.08192, 40.96},
    {"ina230", "TI SBOS601", 0.08192, 40.96}, {"ina231", "TI SBOS722", 0.08192, 40.96},
    {"ina238", "TI SBOSA20", 0.16384, 102.4},
};

std::string mohm(double ohm) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%g mOhm shunt", ohm * 1e3);
  return buf;
}

bool in(double v, double lo, double hi) { return std::isnan(v) || (v >= lo && v <= hi); }

std::string out_of(const char* what, double v, double lo, double hi, const char* unit,
                   const std::string& source) {
  char buf[160];
  std::snprintf(buf, sizeof buf, "%s %.6g %s is outside %.4g..%.4g %s, what ", what, v, unit, lo,
                hi, unit);
  return buf + source + " can read";
}

}  // namespace

ChannelRange ina3221_range(double shunt_ohm) {
  const bool stated = shunt_ohm > 0;
  const double r = stated ? shunt_ohm : kSmallestShuntOhm;
  constexpr double kShuntFsV = 0.16384, kBusFsV = 32.76, kOffsetV = 80e-6;
  ChannelRange c;
  c.v_min = 0;
  c.v_max = kBusFsV;
  c.i_min = -kShuntFsV / r;
  c.i_max = kShuntFsV / r;
  c.p_min = -kBusFsV * kOffsetV / r;
  c.p_max = kBusFsV * kShuntFsV / r;
  c.source =
      "an INA3221 (TI SBOS576) with a " + mohm(r) + (stated ? "" : " (none stated: the smallest)");
  return c;
}

ChannelRange ina2xx_range(const std::string& chip, double shunt_ohm) {
  const Chip* found = nullptr;
  for (const Chip& c : kIna2xx)
    if (chip == c.name) found = &c;
  // "ina2xx" or a chip not in the table: the widest of them all.
  const Chip widest{"ina2xx", "the widest INA2xx", 0.320, 102.4};
  const Chip& c = found ? *found : widest;
  const bool stated = shunt_ohm > 0;
  const double r = stated ? shunt_ohm : kSmallestShuntOhm;
  ChannelRange range;
  range.v_min = 0;
  range.v_max = c.bus_fs_v;
  range.i_min = -c.shunt_fs_v / r;
  range.i_max = c.shunt_fs_v / r;
  range.p_min = 0;  // the power registers are unsigned
  range.p_max = c.bus_fs_v * c.shunt_fs_v / r;
  range.source = std::string("an ") + c.name + " (" + c.datasheet + ") with a " + mohm(r) +
                 (stated ? "" : " (none stated: the smallest)");
  return range;
}

std::string outside_range(const ChannelRange& range, const RailReading& r) {
  if (!in(r.voltage_v, range.v_min, range.v_max))
    return out_of("voltage", r.voltage_v, range.v_min, range.v_max, "V", range.source);
  if (!in(r.current_a, range.i_min, range.i_max))
    return out_of("current", r.current_a, range.i_min, range.i_max, "A", range.source);
  if (!in(r.power_w, range.p_min, range.p_max))
    return out_of("power", r.power_w, range.p_min, range.p_max, "W", range.source);
  return "";
}

}  // namespace edp::power
