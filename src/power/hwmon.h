// INA2xx monitors bound to the kernel's hwmon drivers (DESIGN §4):
// /sys/class/hwmon/hwmonN/ whose `name` is ina2xx, ina209, ina219, ina226,
// ina230 or ina231, with power1_input (uW), curr1_input (mA), in1_input (mV,
// bus) and update_interval (ms). INA3221 hwmon devices are left to the
// jetson source so that `auto` never counts a rail twice.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "power/sensor.h"

namespace edp::power {

std::unique_ptr<Sensor> discover_hwmon(const std::string& sysfs_root,
                                       std::vector<std::string>* log);

}  // namespace edp::power
