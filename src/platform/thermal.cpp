// Thermal zones, sorted by zone number (thermal_zone10 after thermal_zone9).
#include "platform/thermal.h"

#include <algorithm>

namespace edp::platform {

std::string thermal_temp_path(int index) {
  return "/sys/class/thermal/thermal_zone" + std::to_string(index) + "/temp";
}

double millideg_to_c(std::optional<long> millideg) {
  if (!millideg || *millideg <= -256000) return NAN;
  return static_cast<double>(*millideg) / 1000.0;
}

bool counts_for_max_temp(const std::string& type) { return type != "PMIC-Die"; }

std::vector<ThermalZone> read_thermal_zones(const SysfsRoot& root) {
  std::vector<ThermalZone> zones;
  const std::string prefix = "thermal_zone";
  for (const auto& name : root.list("/sys/class/thermal")) {
    if (name.compare(0, prefix.size(), prefix) != 0) continue;
    auto index = parse_long(name.substr(prefix.size()));
    if (!index) continue;
    ThermalZone z;
    z.index = static_cast<int>(*index);
    const std::string dir = "/sys/class/thermal/" + name;
    if (auto type = root.read_line(dir + "/type")) z.type = *type;
    z.temp_c = millideg_to_c(root.read_long(dir + "/temp"));
    zones.push_back(std::move(z));
  }
  std::sort(zones.begin(), zones.end(),
            [](const ThermalZone& a, const ThermalZone& b) { return a.index < b.index; });
  return zones;
}

}  // namespace edp::platform
