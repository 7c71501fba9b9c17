// RAPL powercap counters (see rapl.h).
#include "power/rapl.h"

#include <limits>

#include "power/integrate.h"
#include "power/sysfs.h"

namespace edp::power {
namespace {

struct Zone {
  std::string rail;
  std::string parent;  // the package of a subzone, "" for a package or psys
  FileHandle energy_uj;
  double max_range_uj = 0;
  double last_raw_uj = 0;
  double total_uj = 0;
};

class RaplSensor final : public Sensor {
 public:
  explicit RaplSensor(std::vector<Zone> zones) : zones_(std::move(zones)) {
    for (const auto& z : zones_) {
      RailInfo info{z.rail, ValueKind::energy_j};
      info.timing = Timing::counter;
      info.parent = z.parent;
      rails_.push_back(std::move(info));
    }
  }
  std::string name() const override { return "rapl"; }
  const std::vector<RailInfo>& rails() const override { return rails_; }

  size_t read(double* values, std::string* error) noexcept override {
    size_t failed = 0;
    for (size_t i = 0; i < zones_.size(); ++i) {
      Zone& z = zones_[i];
      long long raw = 0;
      std::string why;
      if (!pread_integer(z.energy_uj.get(), &raw, &why)) {
        if (failed == 0 && error) *error = "rapl: " + z.rail + ": energy_uj: " + why;
        values[i] = std::numeric_limits<double>::quiet_NaN();
        ++failed;
        continue;
      }
      z.total_uj += counter_delta(z.last_raw_uj, static_cast<double>(raw), z.max_range_uj);
      z.last_raw_uj = static_cast<double>(raw);
      values[i] = z.total_uj * 1e-6;
    }
    return failed;
  }

 private:
  std::vector<Zone> zones_;
  std::vector<RailInfo> rails_;
};

}  // namespace

std::unique_ptr<Sensor> discover_rapl(const std::string& sysfs_root,
                                      std::vector<std::string>* log) {
  const std::string cls = sysfs_root + "/sys/class/powercap";
  if (!is_directory(cls)) {
    log->push_back("rapl: " + cls + " not present");
    return nullptr;
  }
  std::vector<Zone> zones;
  for (const auto& entry : list_directory(cls)) {
    // intel-rapl:0 and intel-rapl:0:1; not the control type "intel-rapl" and
    // not the intel-rapl-mmio duplicates of the package counter.
    if (entry.rfind("intel-rapl:", 0) != 0) continue;
    const std::string dir = cls + "/" + entry;
    std::string name;
    if (!read_text(dir + "/name", &name)) continue;
    const size_t second_colon = entry.find(':', 11);
    std::string parent;
    if (second_colon != std::string::npos) {
      if (read_text(cls + "/" + entry.substr(0, second_colon) + "/name", &parent))
        name = parent + "/" + name;
    }
    Zone z;
    z.rail = name;
    z.parent = parent;
    std::string err;
    z.energy_uj = open_read_only(dir + "/energy_uj", &err);
    long long raw = 0, max_range = 0;
    if (!z.energy_uj.valid() || !pread_integer(z.energy_uj.get(), &raw, &err)) {
      log->push_back("rapl: " + name + " skipped: " + err +
                     " (energy_uj is often readable by root only)");
      continue;
    }
    read_integer(dir + "/max_energy_range_uj", &max_range);
    z.max_range_uj = static_cast<double>(max_range);
    z.last_raw_uj = static_cast<double>(raw);
    log->push_back("rapl: found " + name + " at " + dir);
    zones.push_back(std::move(z));
  }
  if (zones.empty()) {
    log->push_back("rapl: no readable intel-rapl zone under " + cls);
    return nullptr;
  }
  return std::make_unique<RaplSensor>(std::move(zones));
}

}  // namespace edp::power
