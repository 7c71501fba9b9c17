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

// The simulated source (power/simulated.h): a test and demo source whose
// power follows this process's CPU time; `auto` never picks it.
struct SimulatedOptions {
  double idle_w = 2.0;       // the simulated machine idle and awake
  double cpu_w = 4.0;        // per CPU busy with this process's work
  double sleep_after_s = 0;  // idle this long, it sleeps; 0: never
  double sleep_w = 1.0;      // asleep
  double wake_j = 0;         // paid by the first busy read after a sleep
  // A read interval whose work used more CPU than this is busy: above what
  // the process's bookkeeping uses between two reads (a window opened, a
  // stop-request poll), below a burst's.
  double busy_cpu_s = 200e-6;
};

struct PowerOptions {
  std::string source = "auto";  // auto|jetson|ina226|hwmon|rapl|nvml|trace|simulated|none
  std::string sysfs_root;       // "" = real root; prefixed to every /sys and /dev path
  double rate_hz = 100;
  int sampler_cpu = -1;  // -1 = not pinned
  Ina226Options ina226;
  std::string trace_file;
  bool trace_loop = true;
  // Windows keep their readings over time at up to this many points a
  // second (power.timeline, Measurement::timeline); 0 = they do not.
  double timeline_hz = 0;
  SimulatedOptions simulated;
};

}  // namespace edp::power
