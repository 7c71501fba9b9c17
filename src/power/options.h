// User-facing settings of the power library, as they appear in the config's
// `power:` section (DESIGN §7) and on the `sensors` command line.
#pragma once

#include <string>

namespace edp::power {

struct Ina226Options {
  std::string bus = "/dev/i2c-1";
  int address = 0x40;
  double shunt_ohm = 0.01;
  double max_current_a = 3.2;
  int averages = 4;          // 1, 4, 16, 64, 128, 256, 512, 1024
  int conversion_us = 1100;  // 140, 204, 332, 588, 1100, 2116, 4156, 8244
  bool poll_ready = false;   // read only when CVRF says a conversion finished
  bool force = false;        // I2C_SLAVE_FORCE: take the address from a bound driver
};

struct PowerOptions {
  std::string source = "auto";  // auto|jetson|ina226|hwmon|rapl|nvml|trace|none
  std::string sysfs_root;       // "" = real root; prefixed to every /sys and /dev path
  double rate_hz = 100;
  int sampler_cpu = -1;  // -1 = not pinned
  Ina226Options ina226;
  std::string trace_file;
  bool trace_loop = true;
  // Windows keep their readings over time at up to this many points a
  // second (power.timeline, Measurement::timeline); 0 = they do not.
  double timeline_hz = 0;
};

}  // namespace edp::power
