// The one interface every power source implements (DESIGN §4): a sensor is
// discovered once, exposes its rails, and read() fills one value per rail.
// read() runs inside the sampler thread, so it never throws: a failed rail is
// reported as NaN and the failure text is handed back for counting.
#pragma once

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "power/sysfs.h"

namespace edp::power {

// What a rail's value means. Power rails are integrated with the trapezoid
// rule; energy counters are differenced.
enum class ValueKind { power_w, energy_j };

struct RailInfo {
  std::string rail;  // "VDD_IN", "package-0", ...
  ValueKind kind = ValueKind::power_w;
};

// One rail's reading with whatever the hardware offers; NaN where it has no
// such quantity (RAPL has no voltage, a trace has no current).
struct RailReading {
  double voltage_v = std::numeric_limits<double>::quiet_NaN();
  double current_a = std::numeric_limits<double>::quiet_NaN();
  double power_w = std::numeric_limits<double>::quiet_NaN();
  double energy_j = std::numeric_limits<double>::quiet_NaN();  // counters only
};

// One monitor channel exposed as sysfs files, as the INA2xx/INA3221 drivers
// do: voltage in mV, current in mA, and power in units of `power_to_w` watts.
// Without a power file (JetPack 5's hwmon layout) power is V x I. Voltage and
// current are read only when `detail` asks for them or power needs them.
// Returns nullptr on success, else the quantity that failed ("voltage",
// "current", "power") with the reason in *why.
const char* read_vip_channel(const FileHandle& voltage_mv, const FileHandle& current_ma,
                             const FileHandle& power, double power_to_w, bool detail,
                             RailReading* r, std::string* why) noexcept;

class Sensor {
 public:
  virtual ~Sensor() = default;
  Sensor() = default;
  Sensor(const Sensor&) = delete;
  Sensor& operator=(const Sensor&) = delete;

  // Source name: "jetson", "ina226", "hwmon", "rapl", "nvml", "trace".
  virtual std::string name() const = 0;
  virtual const std::vector<RailInfo>& rails() const = 0;

  // Fills values[i] (watts or cumulative joules, by rails()[i].kind) for every
  // rail; a failed rail gets NaN. Returns the number of failed rails and, when
  // that is non-zero, sets *error to the first failure. Must not throw.
  virtual size_t read(double* values, std::string* error) noexcept = 0;

  // Voltage/current/power for the sensors command. The default derives
  // power from read(); counters give the cumulative energy only.
  virtual size_t read_detail(std::vector<RailReading>* out, std::string* error) noexcept;

  // Update interval the hardware or driver reports, 0 if unknown. Only a
  // hint: the integrator measures the interval it actually observes.
  virtual double reported_update_interval_s() const { return 0; }
};

}  // namespace edp::power
