// Source selection (see discovery.h).
#include "power/discovery.h"

#include "common/errors.h"
#include "power/hwmon.h"
#include "power/ina226.h"
#include "power/jetson_rails.h"
#include "power/nvml.h"
#include "power/rapl.h"
#include "power/simulated.h"
#include "power/trace.h"

namespace edp::power {
namespace {

std::string looked_for(const std::string& source, const std::string& root) {
  if (source == "jetson")
    return root + "/sys/bus/i2c/drivers/ina3221x/*/iio:device*/rail_name_* (JetPack 4) and " +
           root + "/sys/bus/i2c/drivers/ina3221/*/hwmon/hwmon*/in*_label (JetPack 5/6)";
  if (source == "hwmon")
    return root + "/sys/class/hwmon/hwmon*/ with name ina2xx, ina219, ina226, ... and power1_input";
  if (source == "rapl") return root + "/sys/class/powercap/intel-rapl:*/energy_uj (readable)";
  if (source == "nvml") return "libnvidia-ml.so.1 with a GPU that reports energy or power";
  return source;
}

std::unique_ptr<Sensor> try_source(const std::string& source, const PowerOptions& o,
                                   std::vector<std::string>* log) {
  if (source == "jetson") return discover_jetson_rails(o.sysfs_root, log);
  if (source == "hwmon") return discover_hwmon(o.sysfs_root, log);
  if (source == "rapl") return discover_rapl(o.sysfs_root, log);
  if (source == "nvml") return discover_nvml(log);
  return nullptr;
}

std::string last_lines(const std::vector<std::string>& log, size_t from) {
  std::string s;
  for (size_t i = from; i < log.size(); ++i) s += "\n  " + log[i];
  return s;
}

}  // namespace

std::string valid_sources() {
  return "auto, jetson, ina226, hwmon, rapl, nvml, trace, simulated, none";
}

Discovery discover_sensors(const PowerOptions& o) {
  Discovery d;
  const std::string& s = o.source;
  if (s == "none") {
    d.log.push_back("none: energy is not measured (power.source = none)");
  } else if (s == "auto") {
    for (const char* candidate : {"jetson", "hwmon", "rapl", "nvml"}) {
      if (std::string(candidate) == "nvml" && !o.sysfs_root.empty()) {
        d.log.push_back("nvml: skipped by auto because the sysfs root is re-rooted to " +
                        o.sysfs_root);
        continue;
      }
      if (auto sensor = try_source(candidate, o, &d.log)) d.sensors.push_back(std::move(sensor));
    }
    if (d.sensors.empty())
      d.log.push_back("auto: no power sensor found; energy will not be measured");
  } else if (s == "jetson" || s == "hwmon" || s == "rapl" || s == "nvml") {
    const size_t from = d.log.size();
    auto sensor = try_source(s, o, &d.log);
    if (!sensor)
      throw UsageError("power source '" + s + "' requested but not found; looked for " +
                       looked_for(s, o.sysfs_root) + last_lines(d.log, from));
    d.sensors.push_back(std::move(sensor));
  } else if (s == "ina226") {
    d.sensors.push_back(open_ina226(o.sysfs_root, o.ina226, o.rate_hz, &d.log));
  } else if (s == "trace") {
    d.sensors.push_back(open_trace(o.trace_file, o.trace_loop, &d.log));
  } else if (s == "simulated") {  // a test and demo source: never tried by auto
    d.sensors.push_back(open_simulated(o.simulated, &d.log));
  } else {
    throw UsageError("unknown power source '" + s + "'; valid: " + valid_sources());
  }
  for (const auto& sensor : d.sensors)
    d.source_name += (d.source_name.empty() ? "" : "+") + sensor->name();
  if (d.source_name.empty()) d.source_name = "none";
  return d;
}

}  // namespace edp::power
