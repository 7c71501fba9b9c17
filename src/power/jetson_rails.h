// Jetson INA3221 rails through the kernel driver (DESIGN §4):
//   JetPack 4: /sys/bus/i2c/drivers/ina3221x/<bus>-<addr>/iio:deviceN/
//              rail_name_K, in_powerK_input (mW), in_currentK_input (mA),
//              in_voltageK_input (mV)
//   JetPack 5/6: /sys/bus/i2c/drivers/ina3221/<bus>-<addr>/hwmon/hwmonN/
//              inK_label, inK_input (mV), currK_input (mA); P = V * I
// Directories are scanned (N is never assumed); "NC" channels and the
// sum-of-shunts channel are skipped.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "power/sensor.h"

namespace edp::power {

// Null when no rail was found. *log receives what was tried and found.
std::unique_ptr<Sensor> discover_jetson_rails(const std::string& sysfs_root,
                                              std::vector<std::string>* log);

}  // namespace edp::power
