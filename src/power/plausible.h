// What a power monitor channel can read at all (issue 33). A sysfs value
// outside the range its chip can produce is not a reading: it is counted as
// a failed read, so the window is flagged (a total rail's failure fails the
// run) instead of integrating -5 W or 9.2e15 W as "ok". The ranges come from
// the chips' datasheets (register full scale and offset error) and the shunt
// resistance the driver states; the units are the drivers' (hwmon sysfs ABI:
// in*_input mV, curr*_input mA, power*_input uW; the L4T ina3221x driver:
// in_power*_input mW).
#pragma once

#include <limits>
#include <string>

#include "power/sensor.h"

namespace edp::power {

struct ChannelRange {
  static constexpr double kInf = std::numeric_limits<double>::infinity();
  double v_min = -kInf, v_max = kInf;  // bus voltage, V
  double i_min = -kInf, i_max = kInf;  // current, A
  double p_min = -kInf, p_max = kInf;  // power, W
  std::string source;                  // "INA3221 (TI SBOS576), 5 mOhm shunt"
};

// TI INA3221 (SBOS576, 8.6.2.2-8.6.2.3 and 7.5): shunt-voltage register
// full scale +-163.84 mV (40 uV LSB), bus-voltage register full scale 32.76 V
// (8 mV LSB), shunt offset voltage at most +-80 uV. Current is Vshunt / R;
// power (V x I, signed in both Jetson drivers) reaches down to -32.76 V x
// 80 uV / R, the offset of an idle rail, never to -5 W. `shunt_ohm` <= 0
// (the JetPack 4 ina3221x layout states none): 1 mOhm, the smallest its
// device tree can give (ti,shunt-resistor-mohm is whole milliohms), so the
// range is the widest any such board can read.
ChannelRange ina3221_range(double shunt_ohm);

// The INA2xx chips of the hwmon ina2xx driver, by its `name` file, with the
// shunt from its `shunt_resistor` file (uOhm; <= 0: the driver's default
// 10 mOhm is not assumed, 1 mOhm is). Power registers are unsigned, so power
// is at least 0. INA219/INA220/INA209 (SBOS448, SBOS459, SBOS440): +-320 mV
// shunt, 32 V bus range; INA226 (SBOS547), INA230, INA231 (SBOS601,
// SBOS722): +-81.92 mV, 40.96 V register full scale; INA238 (SBOSA20):
// +-163.84 mV, 102.4 V register full scale; "ina2xx" or unknown: the widest.
ChannelRange ina2xx_range(const std::string& chip, double shunt_ohm);

// "" when every quantity the reading has (non-NaN) lies in `range`, else
// "<quantity> <value> <unit> is outside <lo>..<hi> <unit>, what <source> can
// read". Never throws other than bad_alloc.
std::string outside_range(const ChannelRange& range, const RailReading& r);

}  // namespace edp::power
