// Formatting and argument parsing for the `sensors` command, kept here so
// that src/cli/sensors_command.cpp stays a thin layer of option declarations.
#pragma once

#include <string>
#include <vector>

#include "power/energy_meter.h"
#include "power/options.h"

namespace edp::power {

// "/dev/i2c-1:0x40" -> bus "/dev/i2c-1", address 0x40. Throws edp::UsageError.
void parse_ina226_device(const std::string& spec, Ina226Options* out);

// `sensor,rail,voltage_v,current_a,power_w,unix_s`: the DESIGN §6 columns,
// then when the sensor was read (CLOCK_REALTIME seconds, to the
// microsecond); quantities a sensor does not have are empty fields.
std::string readout_csv_header();
std::string readout_csv(const std::vector<SensorReadout>& rows);

// Aligned table for people.
std::string readout_text(const std::vector<SensorReadout>& rows);

// `sensors --watch`: the sampler's running counters per rail (power now,
// joules since the watch began, update interval, lag, failures, frozen), the
// total rails' sums and the sampler's counts, under a header line.
std::string counters_text(const Counters& c, const std::string& header);

// Per-rail mean power, distinct values and observed update interval of a
// measurement window (`sensors --measure-s`).
std::string measurement_text(const Measurement& m);

// "source: jetson" plus the discovery log, one item per line.
std::string discovery_text(const EnergyMeter& meter);

}  // namespace edp::power
