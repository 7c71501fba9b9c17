// hwmon INA2xx monitors (see hwmon.h).
#include "power/hwmon.h"

#include <unistd.h>

#include <algorithm>
#include <limits>

#include "common/text.h"
#include "power/plausible.h"
#include "power/sysfs.h"
#include "power/vip_channel.h"

namespace edp::power {
namespace {

struct Monitor {
  std::string rail;
  double interval_s = 0;  // update_interval: the driver sets the chip's averaging to it
  FileHandle power_uw, voltage_mv, current_ma;
  ChannelRange range;  // what the chip can read (power/plausible.h)
};

class HwmonSensor final : public Sensor {
 public:
  HwmonSensor(std::vector<Monitor> monitors, double interval_s)
      : monitors_(std::move(monitors)), interval_s_(interval_s) {
    // The ina2xx driver programs the chip's averaging so that one result
    // spans update_interval (Documentation/hwmon/ina2xx.rst), held until the
    // next: an averaging rail (DESIGN §4.2).
    for (const auto& m : monitors_) {
      RailInfo info{m.rail, ValueKind::power_w};
      info.timing = Timing::averaging;
      info.averaging_s = m.interval_s;
      rails_.push_back(std::move(info));
    }
  }
  std::string name() const override { return "hwmon"; }
  const std::vector<RailInfo>& rails() const override { return rails_; }
  double reported_update_interval_s() const override { return interval_s_; }

  size_t read(double* values, std::string* error) noexcept override {
    size_t failed = 0;
    for (size_t i = 0; i < monitors_.size(); ++i) {
      RailReading r;
      if (read_one(monitors_[i], &r, false, failed == 0 ? error : nullptr)) {
        values[i] = r.power_w;
      } else {
        values[i] = std::numeric_limits<double>::quiet_NaN();
        ++failed;
      }
    }
    return failed;
  }

  size_t read_detail(std::vector<RailReading>* out, std::string* error) noexcept override {
    size_t failed = 0;
    out->assign(monitors_.size(), RailReading{});
    for (size_t i = 0; i < monitors_.size(); ++i)
      if (!read_one(monitors_[i], &(*out)[i], true, failed == 0 ? error : nullptr)) ++failed;
    return failed;
  }

 private:
  static bool read_one(const Monitor& m, RailReading* r, bool detail, std::string* error) {
    std::string why;
    // power1_input is in uW (Documentation/hwmon/sysfs-interface).
    const char* failed =
        read_vip_channel(m.voltage_mv, m.current_ma, m.power_uw, 1e-6, detail, r, &why, &m.range);
    if (failed && error) *error = "hwmon: " + m.rail + ": " + failed + ": " + why;
    return failed == nullptr;
  }

  std::vector<Monitor> monitors_;
  std::vector<RailInfo> rails_;
  double interval_s_;
};

bool is_ina2xx(const std::string& name) {
  static const char* const kNames[] = {"ina2xx", "ina209", "ina219", "ina220",
                                       "ina226", "ina230", "ina231", "ina238"};
  return std::find(std::begin(kNames), std::end(kNames), name) != std::end(kNames);
}

std::string basename_of_link(const std::string& link) {
  char buf[4096];
  ssize_t n = ::readlink(link.c_str(), buf, sizeof(buf) - 1);
  if (n <= 0) return "";
  std::string target(buf, static_cast<size_t>(n));
  return target.substr(target.find_last_of('/') + 1);
}

}  // namespace

std::unique_ptr<Sensor> discover_hwmon(const std::string& sysfs_root,
                                       std::vector<std::string>* log) {
  const std::string cls = sysfs_root + "/sys/class/hwmon";
  if (!is_directory(cls)) {
    log->push_back("hwmon: " + cls + " not present");
    return nullptr;
  }
  std::vector<Monitor> monitors;
  double interval_s = 0;
  for (const auto& entry : list_directory(cls)) {
    const std::string dir = cls + "/" + entry;
    std::string name;
    if (!read_text(dir + "/name", &name)) continue;
    if (!is_ina2xx(name)) continue;
    Monitor m;
    std::string device = basename_of_link(dir + "/device");
    std::string label;
    // The device tree's label of the monitor (the hwmon core's `label`
    // attribute; the AGX Thor's carrier INA238 is "VIN"), else the power
    // channel's own label. One that cannot be a name (label_problem: a
    // control character, a bidirectional control, invalid UTF-8, over 64
    // bytes) is not used: the monitor is named by its driver and device.
    auto usable = [&](const std::string& file) {
      if (!read_text(dir + "/" + file, &label) || label.empty()) return false;
      const std::string why = label_problem(label, 64);
      if (why.empty()) return true;
      log->push_back("hwmon: " + dir + "/" + file + " '" + terminal_text(label) + "' " + why +
                     "; not used as the rail's name");
      return false;
    };
    if (usable("label"))
      m.rail = label;
    else if (usable("power1_label"))
      m.rail = label;
    else
      m.rail = name + "_" + (device.empty() ? entry : device);
    std::string err;
    m.power_uw = open_read_only(dir + "/power1_input", &err);
    m.voltage_mv = open_read_only(dir + "/in1_input", &err);
    m.current_ma = open_read_only(dir + "/curr1_input", &err);
    if (!m.power_uw.valid() && (!m.voltage_mv.valid() || !m.current_ma.valid())) {
      log->push_back("hwmon: " + dir + " (" + name + ") skipped: " + err);
      continue;
    }
    // shunt_resistor: micro-ohms (Documentation/hwmon/ina2xx.rst).
    long long shunt_uohm = 0;
    read_integer(dir + "/shunt_resistor", &shunt_uohm);
    m.range = ina2xx_range(name, shunt_uohm > 0 ? shunt_uohm * 1e-6 : 0);
    long long ms = 0;
    if (read_integer(dir + "/update_interval", &ms) && ms > 0) {
      m.interval_s = ms * 1e-3;
      interval_s = std::max(interval_s, m.interval_s);
    }
    log->push_back("hwmon: found " + m.rail + " at " + dir + " (" + name + ")");
    monitors.push_back(std::move(m));
  }
  if (monitors.empty()) {
    log->push_back("hwmon: no INA2xx monitor under " + cls);
    return nullptr;
  }
  return std::make_unique<HwmonSensor>(std::move(monitors), interval_s);
}

}  // namespace edp::power
