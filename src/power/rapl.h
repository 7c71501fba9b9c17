// Intel/AMD RAPL energy counters through powercap (DESIGN §4):
// /sys/class/powercap/intel-rapl:N (package) and intel-rapl:N:M (core, uncore,
// dram) with `name`, `energy_uj` and `max_energy_range_uj`. The counter
// wraps at max_energy_range_uj; the sensor unwraps it into joules since
// discovery, so readings are monotonic cumulative joules.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "power/sensor.h"

namespace edp::power {

std::unique_ptr<Sensor> discover_rapl(const std::string& sysfs_root, std::vector<std::string>* log);

}  // namespace edp::power
