// Jetson INA3221 rails via the ina3221x (JetPack 4) and ina3221 (JetPack 5/6)
// drivers. See jetson_rails.h for the layouts.
#include "power/jetson_rails.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>

#include "common/text.h"
#include "power/plausible.h"
#include "power/sysfs.h"
#include "power/vip_channel.h"

namespace edp::power {
namespace {

struct Channel {
  std::string rail;
  std::string where;       // directory, for messages
  std::string device;      // the INA3221's I2C device, "0-0041"
  double averaging_s = 0;  // the driver's update_interval (JetPack 5/6), 0 = measure
  FileHandle power_mw, voltage_mv, current_ma;
  ChannelRange range;  // what the INA3221 can read (power/plausible.h)
};

class JetsonRails final : public Sensor {
 public:
  JetsonRails(std::vector<Channel> channels, double update_interval_s)
      : channels_(std::move(channels)), update_interval_s_(update_interval_s) {
    // The INA3221 averages continuously and the driver holds the result
    // until the next conversion cycle: an averaging rail (DESIGN §4.2).
    for (const auto& c : channels_) {
      RailInfo info{c.rail, ValueKind::power_w};
      info.timing = Timing::averaging;
      info.averaging_s = c.averaging_s;
      info.device = c.device;
      rails_.push_back(std::move(info));
    }
  }
  std::string name() const override { return "jetson"; }
  const std::vector<RailInfo>& rails() const override { return rails_; }
  double reported_update_interval_s() const override { return update_interval_s_; }

  size_t read(double* values, std::string* error) noexcept override {
    size_t failed = 0;
    for (size_t i = 0; i < channels_.size(); ++i) {
      RailReading r;
      if (!read_channel(channels_[i], &r, /*detail=*/false, error, failed)) {
        values[i] = std::numeric_limits<double>::quiet_NaN();
        ++failed;
      } else {
        values[i] = r.power_w;
      }
    }
    return failed;
  }

  size_t read_detail(std::vector<RailReading>* out, std::string* error) noexcept override {
    size_t failed = 0;
    out->assign(channels_.size(), RailReading{});
    for (size_t i = 0; i < channels_.size(); ++i) {
      if (!read_channel(channels_[i], &(*out)[i], /*detail=*/true, error, failed)) ++failed;
    }
    return failed;
  }

 private:
  static bool read_channel(const Channel& c, RailReading* r, bool detail, std::string* error,
                           size_t failed_so_far) {
    std::string why;
    // in_powerK_input is in mW (the L4T ina3221x driver).
    const char* failed =
        read_vip_channel(c.voltage_mv, c.current_ma, c.power_mw, 1e-3, detail, r, &why, &c.range);
    if (failed && failed_so_far == 0 && error)
      *error = "jetson: " + c.rail + ": " + failed + ": " + why;
    return failed == nullptr;
  }

  std::vector<Channel> channels_;
  std::vector<RailInfo> rails_;
  double update_interval_s_;
};

bool is_device_dir_name(const std::string& name) {
  // "<bus>-<addr>", e.g. "0-0040" or "1-0041".
  const size_t dash = name.find('-');
  if (dash == std::string::npos || dash == 0 || name.size() != dash + 5) return false;
  for (size_t i = 0; i < dash; ++i)
    if (!std::isdigit(static_cast<unsigned char>(name[i]))) return false;
  for (size_t i = dash + 1; i < name.size(); ++i)
    if (!std::isxdigit(static_cast<unsigned char>(name[i]))) return false;
  return true;
}

bool skip_label(const std::string& label) {
  const std::string lower = ascii_lower(label);
  // "NC" = not connected; the INA3221 shunt-sum channel is labelled "sum of
  // shunt voltages" by the mainline driver (and "Sum of shunts" style elsewhere).
  return label.empty() || lower == "nc" || lower.rfind("sum", 0) == 0;
}

// One INA3221 channel `k` in `dir`, whatever the layout: the label decides
// whether it is a rail; power may be absent when voltage and current exist.
void add_channel(const std::string& dir, const std::string& device, double averaging_s,
                 const std::string& k, const std::string& label, const std::string& power_file,
                 const std::string& voltage_file, const std::string& current_file, double shunt_ohm,
                 std::vector<Channel>* out, std::vector<std::string>* log) {
  if (skip_label(label) || !path_exists(dir + "/" + current_file)) {
    log->push_back("jetson: " + dir + " channel " + k + " skipped (" +
                   (label.empty() ? "no label" : terminal_text(label)) + ")");
    return;
  }
  Channel c;
  c.rail = label;
  // The label comes from the device tree through sysfs: a name that CSV,
  // JSON, a terminal and the config's total_rails must all carry. One that
  // cannot be a name (a control character, a bidirectional control, invalid
  // UTF-8, over 64 bytes) is replaced, and the rail is still measured.
  if (const std::string why = label_problem(label, 64); !why.empty()) {
    c.rail = "ina3221_" + device + "_ch" + k;
    log->push_back("jetson: " + dir + " channel " + k + ": its label '" + terminal_text(label) +
                   "' " + why + "; named " + c.rail + " instead");
  }
  c.where = dir;
  c.device = device;
  c.averaging_s = averaging_s;
  c.range = ina3221_range(shunt_ohm);
  std::string err;
  if (!power_file.empty()) c.power_mw = open_read_only(dir + "/" + power_file, &err);
  c.voltage_mv = open_read_only(dir + "/" + voltage_file, &err);
  c.current_ma = open_read_only(dir + "/" + current_file, &err);
  if (!c.power_mw.valid() && (!c.voltage_mv.valid() || !c.current_ma.valid())) {
    log->push_back("jetson: " + c.rail + " skipped: " + err);
    return;
  }
  log->push_back("jetson: found " + c.rail + " at " + dir + " channel " + k);
  out->push_back(std::move(c));
}

// JetPack 4: iio layout.
void scan_ina3221x(const std::string& root, std::vector<Channel>* out,
                   std::vector<std::string>* log) {
  const std::string drv = root + "/sys/bus/i2c/drivers/ina3221x";
  if (!is_directory(drv)) {
    log->push_back("jetson: " + drv + " not present (no JetPack 4 ina3221x driver)");
    return;
  }
  for (const auto& dev : list_directory(drv)) {
    if (!is_device_dir_name(dev)) continue;
    for (const auto& sub : list_directory(drv + "/" + dev)) {
      if (sub.rfind("iio:device", 0) != 0) continue;
      const std::string dir = drv + "/" + dev + "/" + sub;
      for (const auto& file : list_directory(dir)) {
        if (file.rfind("rail_name_", 0) != 0) continue;
        const std::string k = file.substr(10);
        std::string label;
        if (!read_text(dir + "/" + file, &label)) continue;
        // The ina3221x driver states no shunt: the INA3221's widest range.
        add_channel(dir, dev, 0, k, label, "in_power" + k + "_input", "in_voltage" + k + "_input",
                    "in_current" + k + "_input", 0, out, log);
      }
    }
  }
}

// JetPack 5/6: hwmon layout below the i2c device.
void scan_ina3221(const std::string& root, std::vector<Channel>* out, double* update_interval_s,
                  std::vector<std::string>* log) {
  const std::string drv = root + "/sys/bus/i2c/drivers/ina3221";
  if (!is_directory(drv)) {
    log->push_back("jetson: " + drv + " not present (no JetPack 5/6 ina3221 driver)");
    return;
  }
  for (const auto& dev : list_directory(drv)) {
    if (!is_device_dir_name(dev)) continue;
    const std::string hw = drv + "/" + dev + "/hwmon";
    for (const auto& sub : list_directory(hw)) {
      if (sub.rfind("hwmon", 0) != 0) continue;
      const std::string dir = hw + "/" + sub;
      long long interval_ms = 0;
      if (read_integer(dir + "/update_interval", &interval_ms) && interval_ms > 0)
        *update_interval_s = std::max(*update_interval_s, interval_ms * 1e-3);
      for (const auto& file : list_directory(dir)) {
        // inK_label
        if (file.size() < 9 || file.rfind("in", 0) != 0 ||
            file.compare(file.size() - 6, 6, "_label") != 0)
          continue;
        const std::string k = file.substr(2, file.size() - 8);
        std::string label;
        if (!read_text(dir + "/" + file, &label)) continue;
        // A channel switched off (inK_enable 0) answers ENODATA to every
        // read (drivers/hwmon/ina3221.c): not a rail.
        long long enabled = 1;
        if (read_integer(dir + "/in" + k + "_enable", &enabled) && enabled == 0) {
          log->push_back("jetson: " + dir + " channel " + k + " skipped (" + terminal_text(label) +
                         ", disabled: in" + k + "_enable is 0)");
          continue;
        }
        // No power file in this layout: P = V x I. shuntK_resistor is in
        // micro-ohms (Documentation/hwmon/ina3221.rst).
        long long shunt_uohm = 0;
        read_integer(dir + "/shunt" + k + "_resistor", &shunt_uohm);
        add_channel(dir, dev, interval_ms * 1e-3, k, label, "", "in" + k + "_input",
                    "curr" + k + "_input", shunt_uohm > 0 ? shunt_uohm * 1e-6 : 0, out, log);
      }
    }
  }
}

}  // namespace

std::unique_ptr<Sensor> discover_jetson_rails(const std::string& sysfs_root,
                                              std::vector<std::string>* log) {
  std::vector<Channel> channels;
  double update_interval_s = 0;
  scan_ina3221x(sysfs_root, &channels, log);
  scan_ina3221(sysfs_root, &channels, &update_interval_s, log);
  if (channels.empty()) return nullptr;
  // Two devices may carry the same label; keep rail names unique by
  // numbering the repeats ("VDD_3V3_SYS_2").
  std::vector<std::string> labels;
  for (const auto& c : channels) labels.push_back(c.rail);
  for (size_t i = 0; i < channels.size(); ++i) {
    const auto repeats =
        std::count(labels.begin(), labels.begin() + static_cast<long>(i), labels[i]);
    if (repeats > 0) channels[i].rail = labels[i] + "_" + std::to_string(repeats + 1);
  }
  return std::make_unique<JetsonRails>(std::move(channels), update_interval_s);
}

}  // namespace edp::power
