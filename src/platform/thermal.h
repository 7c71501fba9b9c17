// Thermal zones (/sys/class/thermal/thermal_zoneN/{type,temp}).
#pragma once

#include <cmath>
#include <optional>
#include <vector>

#include "platform/platform.h"
#include "platform/sysfs.h"

namespace edp::platform {

std::vector<ThermalZone> read_thermal_zones(const SysfsRoot& root);

// Path of zone `index`'s temp file, relative to the root.
std::string thermal_temp_path(int index);

// A temp reading in millidegrees C as degrees C; NAN for the values drivers
// use to mean "no reading" (Tegra reports -256000 for a powered-off zone).
double millideg_to_c(std::optional<long> millideg);

// Whether a zone counts towards Snapshot::max_temp_c. The TX2 "PMIC-Die"
// zone reports a constant 100 C (tegrastats prints PMIC@100C on an idle
// board), so it would always be the maximum.
bool counts_for_max_temp(const std::string& type);

}  // namespace edp::platform
