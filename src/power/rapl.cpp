// RAPL powercap counters (see rapl.h).
#include "power/rapl.h"

#include <cstdio>
#include <limits>

#include "power/clock.h"
#include "power/counter.h"
#include "power/sysfs.h"

namespace edp::power {
namespace {

// Plausibility limit of a RAPL zone (DESIGN §4.2; see counter.h).
//
// Where the zone states its power range, the limit is
// kConstraintFactor x the largest constraint_N_max_power_uw ("maximum
// allowed power in micro watts" of that constraint, Documentation/ABI/
// testing/sysfs-class-powercap and Documentation/power/powercap/powercap.rst).
// intel_rapl fills it from MSR_PKG_POWER_INFO / MSR_DRAM_POWER_INFO (thermal
// spec power for the long-term constraint, the electrical maximum for the
// short-term one; Intel SDM vol. 3B §14.10.3 and §14.10.5). A package may run
// above its thermal spec power for short windows (power limit 2, and the
// peak limit for milliseconds), so the factor is a generous 4.
//
// Without such a file, a default per domain type, chosen well above any part
// we know of: server packages of 2024 have a thermal design power of at most
// about 500 W (Intel Xeon 6980P, AMD EPYC 9965); DRAM of a fully populated
// socket draws far less than 500 W; psys covers the whole platform.
// The limit only has to separate real energy from glitches that are orders of
// magnitude larger: a spurious low read, taken as a wraparound, looks like
// max_energy_range_uj (~262 kJ) in a few milliseconds.
constexpr double kConstraintFactor = 4;
constexpr double kDefaultPackageW = 1000;  // "package-N"
constexpr double kDefaultCoreW = 1000;     // "core" (PP0), part of the package
constexpr double kDefaultUncoreW = 500;    // "uncore" (PP1, the client GPU)
constexpr double kDefaultDramW = 500;      // "dram"
constexpr double kDefaultPsysW = 2000;     // "psys", the platform
constexpr double kDefaultOtherW = 2000;    // a domain name we do not know
// The energy status MSRs are updated about every 1 ms (Intel SDM vol. 3B
// §14.10.3); 50 ms also absorbs the sampler being preempted between the read
// and its timestamp.
constexpr double kRaplSlackS = 0.05;

double default_max_power_w(const std::string& domain) {
  if (domain.rfind("package", 0) == 0) return kDefaultPackageW;
  if (domain == "core") return kDefaultCoreW;
  if (domain == "uncore") return kDefaultUncoreW;
  if (domain == "dram") return kDefaultDramW;
  if (domain == "psys") return kDefaultPsysW;
  return kDefaultOtherW;
}

// kConstraintFactor x the largest constraint_N_max_power_uw of the zone, or
// the domain default; *source says which, for the discovery log.
double zone_max_power_w(const std::string& dir, const std::string& domain, std::string* source) {
  long long largest_uw = 0;
  for (const auto& entry : list_directory(dir)) {
    const std::string suffix = "_max_power_uw";
    if (entry.rfind("constraint_", 0) != 0 || entry.size() <= suffix.size() ||
        entry.compare(entry.size() - suffix.size(), suffix.size(), suffix) != 0)
      continue;
    long long uw = 0;
    if (read_integer(dir + "/" + entry, &uw) && uw > largest_uw) largest_uw = uw;
  }
  char buf[128];
  if (largest_uw > 0) {
    const double w = kConstraintFactor * static_cast<double>(largest_uw) * 1e-6;
    std::snprintf(buf, sizeof(buf), "%g x %g W from constraint_*_max_power_uw", kConstraintFactor,
                  static_cast<double>(largest_uw) * 1e-6);
    *source = buf;
    return w;
  }
  const double w = default_max_power_w(domain);
  *source = "default for " + domain + " (no constraint_*_max_power_uw)";
  return w;
}

struct Zone {
  std::string rail;
  std::string parent;  // the package of a subzone, "" for a package or psys
  FileHandle energy_uj;
  EnergyCounter counter{CounterSpec{}};
};

class RaplSensor final : public Sensor {
 public:
  explicit RaplSensor(std::vector<Zone> zones) : zones_(std::move(zones)) {
    for (const auto& z : zones_) {
      RailInfo info{z.rail, ValueKind::energy_j};
      info.timing = Timing::counter;
      info.parent = z.parent;
      info.max_power_w = z.counter.spec().max_power_w;
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
      // A counter file gone or replaced reads its last value forever; a
      // value outside 0..max_energy_range_uj is no value of the counter.
      std::string why = z.energy_uj.replaced();
      bool ok = why.empty() && pread_integer(z.energy_uj.get(), &raw, &why);
      const double range = z.counter.spec().max_range;
      if (ok && (raw < 0 || (range > 0 && static_cast<double>(raw) > range))) {
        why = std::to_string(raw) + " is outside the counter's 0.." +
              std::to_string(static_cast<long long>(range)) + " (max_energy_range_uj)";
        ok = false;
      }
      if (!ok) {
        if (failed == 0 && error) *error = "rapl: " + z.rail + ": energy_uj: " + why;
        values[i] = std::numeric_limits<double>::quiet_NaN();
        ++failed;
        continue;
      }
      const size_t before = z.counter.anomalies();
      z.counter.feed(static_cast<double>(raw), now_s());
      if (z.counter.anomalies() != before) {
        anomalies_ += z.counter.anomalies() - before;
        last_anomaly_ = "rapl: " + z.counter.last_anomaly();
      }
      values[i] = z.counter.joules();
    }
    return failed;
  }

  size_t anomalies() const noexcept override { return anomalies_; }
  std::string last_anomaly() const override { return last_anomaly_; }

 private:
  std::vector<Zone> zones_;
  std::vector<RailInfo> rails_;
  size_t anomalies_ = 0;
  std::string last_anomaly_;
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
    const std::string domain = name;
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
    CounterSpec spec;
    spec.rail = name;
    spec.unit = "uJ";
    spec.unit_j = 1e-6;
    spec.max_range = static_cast<double>(max_range);
    std::string limit_source;
    spec.max_power_w = zone_max_power_w(dir, domain, &limit_source);
    spec.slack_s = kRaplSlackS;
    z.counter = EnergyCounter(spec);
    z.counter.start(static_cast<double>(raw), now_s());
    char limit[64];
    std::snprintf(limit, sizeof(limit), "%g W", spec.max_power_w);
    log->push_back("rapl: found " + name + " at " + dir + "; plausibility limit " + limit + " (" +
                   limit_source + ")");
    zones.push_back(std::move(z));
  }
  if (zones.empty()) {
    log->push_back("rapl: no readable intel-rapl zone under " + cls);
    return nullptr;
  }
  return std::make_unique<RaplSensor>(std::move(zones));
}

}  // namespace edp::power
