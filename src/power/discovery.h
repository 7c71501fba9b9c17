// Which sensors a PowerOptions selects (DESIGN §4). `auto` tries jetson,
// hwmon, rapl and nvml in that order and keeps every source it finds (CPU
// package from RAPL plus GPU from NVML on a desktop). An explicitly requested
// source that is missing is an edp::UsageError naming what was looked for and
// where. NVML is not re-rooted, so `auto` skips it when sysfs_root is set.
// `trace` and `simulated` are test and demo sources, only ever chosen by name.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "power/options.h"
#include "power/sensor.h"

namespace edp::power {

struct Discovery {
  std::vector<std::unique_ptr<Sensor>> sensors;  // empty for "none"
  std::vector<std::string> log;                  // what was tried, found, missing
  std::string source_name;                       // "jetson", "rapl+nvml", "none", ...
};

Discovery discover_sensors(const PowerOptions& options);

// "auto, jetson, ina226, hwmon, rapl, nvml, trace, simulated, none"
std::string valid_sources();

}  // namespace edp::power
