// The one interface every power source implements (DESIGN §4): a sensor is
// discovered once, exposes its rails, and read() fills one value per rail.
// read() runs inside the sampler thread, so it never throws: a failed rail is
// reported as NaN and the failure text is handed back for counting.
#pragma once

#include <cmath>
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace edp::power {

// What a rail's value means. Power rails are integrated with the trapezoid
// rule; energy counters are differenced.
enum class ValueKind { power_w, energy_j };

// How a rail's values relate to time (DESIGN §4.2).
//  - counter: cumulative joules (RAPL, NVML total energy); differenced.
//  - instantaneous: the power at the moment of the read (a trace, NVML power
//    on older GPUs); integrated as read.
//  - averaging: the chip averages over a period and the value is held until
//    the next update (INA3221, INA226 with averaging, hwmon INA2xx). A value
//    published at u describes [u - averaging_s, u], so it lags the load; the
//    sampler corrects that lag (power/lag_correction.h).
enum class Timing { counter, instantaneous, averaging };

const char* timing_name(Timing t);  // "counter", "instantaneous", "averaging"

struct RailInfo {
  RailInfo() = default;
  RailInfo(std::string rail_name, ValueKind value_kind, Timing rail_timing = Timing::instantaneous)
      : rail(std::move(rail_name)), kind(value_kind), timing(rail_timing) {}

  std::string rail;  // "VDD_IN", "package-0", ...
  ValueKind kind = ValueKind::power_w;
  Timing timing = Timing::instantaneous;
  // averaging: the period each value is the mean over, when the hardware or
  // its configuration states it (INA226 from its config register, hwmon from
  // update_interval); 0 = not stated: taken equal to the update interval the
  // sampler measures on the rail (the chip converts continuously, so each
  // published mean covers the time since the previous one).
  double averaging_s = 0;
  // The rail this one is part of, "" for a top-level rail: RAPL
  // "package-0/core" is inside "package-0". Used to refuse nested totals.
  std::string parent;
  // Where the rail was found, for the board table of total rails: the
  // INA3221's I2C device ("0-0041"), empty when it means nothing.
  std::string device;
  // counters: the largest power (W) a delta may imply before it is taken as
  // a glitch rather than energy (0 = no limit). Documented per source.
  double max_power_w = 0;
};

// One rail's reading with whatever the hardware offers; NaN where it has no
// such quantity (RAPL has no voltage, a trace has no current).
struct RailReading {
  double voltage_v = std::numeric_limits<double>::quiet_NaN();
  double current_a = std::numeric_limits<double>::quiet_NaN();
  double power_w = std::numeric_limits<double>::quiet_NaN();
  double energy_j = std::numeric_limits<double>::quiet_NaN();  // counters only
};

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

  // Readings the sensor discarded or marked as suspect since discovery: a
  // counter step implying more than the rail's max_power_w (a glitch, not a
  // wraparound), a counter reset, an INA226 math overflow. Called from the
  // sampler thread after read(); the sampler counts them per window and the
  // run is flagged. last_anomaly() says what the latest one was.
  virtual size_t anomalies() const noexcept { return 0; }
  virtual std::string last_anomaly() const { return {}; }
};

}  // namespace edp::power
