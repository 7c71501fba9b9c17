// `edpbench sensors`: lists the power sensors discovery finds and prints
// readings (DESIGN §6). The logic lives in src/power (discovery.h, readout.h).
#include <chrono>
#include <iostream>
#include <memory>
#include <string>
#include <thread>

#include "bench/board_rails.h"
#include "bench/config.h"
#include "cli/command.h"
#include "common/errors.h"
#include "common/text.h"
#include "power/energy_meter.h"
#include "power/readout.h"

namespace {

edp::cli::CommandRunner setup(CLI::App& sub) {
  struct Options {
    edp::power::PowerOptions power;
    std::string ina226;
    int samples = 1;
    double interval_s = 0.5;
    double measure_s = 0;
    bool csv = false;
  };
  auto opt = std::make_shared<Options>();
  sub.add_option("--source", opt->power.source,
                 "Power source: auto|jetson|ina226|hwmon|rapl|nvml|trace|none (default auto)")
      ->type_name("S");
  sub.add_option("--sysfs-root", opt->power.sysfs_root,
                 "Prefix every /sys and /dev path with DIR (fake trees, containers)")
      ->type_name("DIR");
  sub.add_option("--ina226", opt->ina226, "INA226 on DEV:ADDR, e.g. /dev/i2c-1:0x40")
      ->type_name("DEV:ADDR");
  sub.add_option("--shunt-ohm", opt->power.ina226.shunt_ohm, "INA226 shunt resistance (ohm)")
      ->type_name("R");
  sub.add_option("--max-current-a", opt->power.ina226.max_current_a,
                 "INA226 largest expected current (A), sets the current LSB")
      ->type_name("A");
  sub.add_option("--trace", opt->power.trace_file, "Trace CSV for --source trace")
      ->type_name("FILE");
  sub.add_option("--samples", opt->samples, "Number of readings per rail (default 1)")
      ->type_name("N");
  sub.add_option("--interval-s", opt->interval_s, "Seconds between readings (default 0.5)")
      ->type_name("S")
      ->check(edp::cli::finite_range(0, 3600));
  sub.add_option("--measure-s", opt->measure_s,
                 "Then sample for S seconds and show distinct values and the observed update "
                 "interval per rail")
      ->type_name("S")
      ->check(edp::cli::finite_range(0, 3600));  // 1e9 was accepted
  sub.add_option("--rate-hz", opt->power.rate_hz, "Sampling rate for --measure-s (default 100)")
      ->type_name("HZ");
  sub.add_flag("--csv", opt->csv, "Print sensor,rail,voltage_v,current_a,power_w rows");

  return [opt]() {
    using namespace edp::power;
    if (opt->samples < 1) throw edp::UsageError("--samples must be at least 1");
    edp::bench::Config ranges;  // --rate-hz: the config's range, nan and inf refused
    edp::bench::set_config_value(ranges, "power.rate_hz", edp::fmt("%.15g", opt->power.rate_hz),
                                 "--rate-hz");
    if (!(opt->interval_s >= 0)) throw edp::UsageError("--interval-s must not be negative");
    if (!(opt->measure_s >= 0)) throw edp::UsageError("--measure-s must not be negative");
    if (opt->csv && opt->measure_s > 0)
      throw edp::UsageError("--measure-s prints a table; it cannot be combined with --csv");
    PowerOptions power = opt->power;
    if (!opt->ina226.empty()) {
      parse_ina226_device(opt->ina226, &power.ina226);
      if (power.source == "auto") power.source = "ina226";
    }
    EnergyMeter meter = EnergyMeter::open(power);
    if (!opt->csv) {
      std::cout << discovery_text(meter);
      // The board, the board-table entry used and why, and the total rails
      // `run` would choose on it (DESIGN §4.1).
      if (meter.measures_energy()) {
        const auto platform = edp::platform::probe(power.sysfs_root);
        std::cout << "board: " << platform.board_why << "\n";
        const auto total = choose_total_rails(meter.rails(), edp::bench::rail_roles(platform), {});
        std::cout << "total rails: " << total.why << "\n";
      }
    }
    if (!meter.measures_energy()) {
      std::cerr << "edpbench: no power sensor to read\n";
      return power.source == "none" ? 0 : 1;
    }
    if (opt->csv)
      std::cout << readout_csv_header();
    else
      std::cout << "\n";
    bool any_ok = false;
    for (int i = 0; i < opt->samples; ++i) {
      if (i > 0) std::this_thread::sleep_for(std::chrono::duration<double>(opt->interval_s));
      const auto rows = meter.read_now();
      for (const auto& r : rows) any_ok |= r.ok;
      std::cout << (opt->csv ? readout_csv(rows) : readout_text(rows));
      std::cout.flush();
    }
    if (opt->measure_s > 0) {
      meter.begin_window("sensors");
      std::this_thread::sleep_for(std::chrono::duration<double>(opt->measure_s));
      std::cout << "\n" << measurement_text(meter.end_window("sensors"));
    }
    if (!any_ok) std::cerr << "edpbench: every sensor read failed\n";
    return any_ok && std::cout ? 0 : 1;
  };
}

}  // namespace

static edp::cli::CommandRegistration reg(40, "sensors", "List power sensors and print readings",
                                         setup);
