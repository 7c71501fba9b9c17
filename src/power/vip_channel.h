// Reading one power monitor channel that its driver exposes as sysfs files
// (the INA2xx/INA3221 drivers: hwmon.cpp, jetson_rails.cpp), checked against
// what its chip can read (power/plausible.h).
#pragma once

#include <string>

#include "power/plausible.h"
#include "power/sensor.h"
#include "power/sysfs.h"

namespace edp::power {

// One monitor channel exposed as sysfs files, as the INA2xx/INA3221 drivers
// do: voltage in mV, current in mA, and power in units of `power_to_w` watts.
// Without a power file (JetPack 5's hwmon layout) power is V x I. Voltage and
// current are read only when `detail` asks for them or power needs them.
// Returns nullptr on success, else the quantity that failed ("voltage",
// "current", "power") with the reason in *why. A file that vanished or was
// replaced since discovery (FileHandle::replaced) and a value outside
// `range` (power/plausible.h; nullptr: none) are failures too.
const char* read_vip_channel(const FileHandle& voltage_mv, const FileHandle& current_ma,
                             const FileHandle& power, double power_to_w, bool detail,
                             RailReading* r, std::string* why,
                             const ChannelRange* range = nullptr) noexcept;

}  // namespace edp::power
