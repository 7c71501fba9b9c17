// `edpbench sensors`: lists the power sensors discovery finds and prints
// readings (DESIGN §6). It opens the same session `run` and `measure` build
// (bench/engine/session.h), from the same power options, so the sensors,
// the total rails and why are the ones those commands would use. The
// formatting lives in src/power (readout.h).
#include <unistd.h>

#include <chrono>
#include <ctime>
#include <iostream>
#include <memory>
#include <string>
#include <thread>

#include "bench/engine/session.h"
#include "bench/engine/signals.h"
#include "cli/command.h"
#include "cli/power_options.h"
#include "common/errors.h"
#include "common/json.h"
#include "common/text.h"
#include "power/energy_meter.h"
#include "power/readout.h"

namespace edp::cli::sensors_command {
namespace {

using edp::JsonObject;

std::string json_list(const std::vector<std::string>& items) {
  std::string out = "[";
  for (size_t i = 0; i < items.size(); ++i) out += (i ? "," : "") + items[i];
  return out + "]";
}

std::string json_strings(const std::vector<std::string>& v) {
  std::vector<std::string> q;
  for (const auto& s : v) q.push_back(edp::json_string(s));
  return json_list(q);
}

std::string readings_json(const std::vector<edp::power::SensorReadout>& rows) {
  std::vector<std::string> out;
  for (const auto& r : rows) {
    JsonObject o;
    o.set("sensor", r.sensor)
        .set("rail", r.rail)
        .set("voltage_v", r.reading.voltage_v)
        .set("current_a", r.reading.current_a)
        .set("power_w", r.reading.power_w)
        .set("energy_j", r.reading.energy_j)
        .set("ok", r.ok)
        .set("error", r.error);
    out.push_back(o.str(0));
  }
  return json_list(out);
}

edp::cli::CommandRunner setup(CLI::App& sub) {
  struct Options {
    edp::cli::PowerFlags power;
    edp::bench::SessionOptions session;
    std::string ina226;
    int samples = 1;
    double interval_s = 0.5;
    double measure_s = 0;
    bool csv = false, json = false, watch = false;
  };
  auto opt = std::make_shared<Options>();
  opt->power.add_to(sub, "--source");
  sub.add_option("--ina226", opt->ina226, "INA226 on DEV:ADDR, e.g. /dev/i2c-1:0x40")
      ->type_name("DEV:ADDR");
  sub.add_option("--shunt-ohm", opt->session.power.ina226.shunt_ohm,
                 "INA226 shunt resistance (ohm)")
      ->type_name("R");
  sub.add_option("--max-current-a", opt->session.power.ina226.max_current_a,
                 "INA226 largest expected current (A), sets the current LSB")
      ->type_name("A");
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
  sub.add_flag("--csv", opt->csv,
               "Print sensor,rail,voltage_v,current_a,power_w,unix_s rows (unix_s: when read)");
  sub.add_flag("--json", opt->json,
               "Print the sensors, total rails and readings as one JSON object on stdout");
  sub.add_flag("--watch", opt->watch,
               "Refresh a live per-rail view (power, joules since start, update interval, lag, "
               "frozen) every --interval-s until Ctrl-C, or --samples times");

  CLI::Option* samples_given = sub.get_option("--samples");
  return [opt, samples_given]() {
    using namespace edp::power;
    if (opt->samples < 1) throw edp::UsageError("--samples must be at least 1");
    if (!(opt->interval_s >= 0)) throw edp::UsageError("--interval-s must not be negative");
    if (!(opt->measure_s >= 0)) throw edp::UsageError("--measure-s must not be negative");
    if (opt->csv && opt->measure_s > 0)
      throw edp::UsageError("--measure-s prints a table; it cannot be combined with --csv");
    if (opt->csv && opt->json) throw edp::UsageError("--csv and --json: choose one");
    if (opt->watch && (opt->csv || opt->json || opt->measure_s > 0))
      throw edp::UsageError(
          "--watch refreshes a table; it cannot be combined with --csv, --json or --measure-s");
    if (opt->watch && !(opt->interval_s >= 0.05))
      throw edp::UsageError("--watch needs --interval-s of at least 0.05");
    edp::bench::SessionOptions so = opt->session;
    so.power.baseline_s = 0;
    opt->power.apply(so);
    if (!opt->ina226.empty()) {
      parse_ina226_device(opt->ina226, &so.power.ina226);
      if (so.power.source == "auto") so.power.source = "ina226";
    }
    edp::bench::Session session(so, edp::cli::power_option_name);
    session.throw_problems();
    EnergyMeter& meter = session.meter();
    const bool text = !opt->csv && !opt->json;
    if (text) {
      std::cout << discovery_text(meter);
      // The board, the board-table entry used and why, and the total rails
      // `run` would choose on it (DESIGN §4.1).
      if (meter.measures_energy()) {
        std::cout << "board: " << session.platform().board_why << "\n";
        std::cout << "total rails: " << session.total_rails_why() << "\n";
      }
    }
    JsonObject json;
    if (opt->json) {
      json.set("source", meter.source_name())
          .set("measures_energy", meter.measures_energy())
          .set_raw("discovery_log", json_strings(meter.discovery_log()))
          .set("board", session.platform().board_why)
          .set_raw("rails", json_strings(meter.rail_names()))
          .set_raw("total_rails", json_strings(session.total_rails()))
          .set("total_rails_why", session.total_rails_why())
          .set("reported_update_interval_s", meter.reported_update_interval_s());
    }
    if (!meter.measures_energy()) {
      if (opt->json) std::cout << json.set_raw("readings", "[]").str() << "\n";
      std::cerr << "edpbench: no power sensor to read\n";
      return so.power.source == "none" ? 0 : 1;
    }
    if (opt->watch) {
      // The sampler's running counters (what the exporter serves), redrawn
      // in place on a terminal, one block after another otherwise. The
      // total rails are the session's.
      edp::bench::install_stop_handlers();
      meter.start();
      const bool tty = ::isatty(STDOUT_FILENO) == 1;
      const long refreshes = samples_given->count() > 0 ? opt->samples : -1;
      const auto period = std::chrono::duration<double>(opt->interval_s);
      auto next = std::chrono::steady_clock::now();
      for (long i = 0; refreshes < 0 || i < refreshes; ++i) {
        next += std::chrono::duration_cast<std::chrono::steady_clock::duration>(period);
        while (std::chrono::steady_clock::now() < next && !edp::bench::stop_signal())
          std::this_thread::sleep_for(std::chrono::milliseconds(20));
        if (const int sig = edp::bench::stop_signal()) return 128 + sig;
        const std::time_t now = std::time(nullptr);
        char stamp[32];
        std::strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
        const std::string header = "edpbench sensors --watch: " + meter.source_name() + " at " +
                                   stamp + ", every " + edp::fmt("%g", opt->interval_s) +
                                   " s (* total rails; Ctrl-C to stop)";
        std::cout << (tty ? "\033[H\033[2J" : (i > 0 ? "\n" : ""))
                  << counters_text(meter.counters(), header);
        std::cout.flush();
        if (!std::cout) return 1;
      }
      return 0;
    }
    if (opt->csv)
      std::cout << readout_csv_header();
    else if (text)
      std::cout << "\n";
    bool any_ok = false;
    std::vector<std::string> samples;
    for (int i = 0; i < opt->samples; ++i) {
      if (i > 0) std::this_thread::sleep_for(std::chrono::duration<double>(opt->interval_s));
      const auto rows = meter.read_now();
      for (const auto& r : rows) any_ok |= r.ok;
      if (opt->json)
        samples.push_back(readings_json(rows));
      else
        std::cout << (opt->csv ? readout_csv(rows) : readout_text(rows)) << std::flush;
    }
    if (opt->json) json.set_raw("readings", json_list(samples));
    if (opt->measure_s > 0) {
      meter.begin_window("sensors");
      std::this_thread::sleep_for(std::chrono::duration<double>(opt->measure_s));
      const Measurement m = meter.end_window("sensors");
      if (opt->json) {
        std::vector<std::string> rails;
        for (const auto& r : m.rails) {
          JsonObject o;
          o.set("rail", r.rail)
              .set("timing", timing_name(r.timing))
              .set("energy_j", r.energy_j)
              .set("power_w_mean", r.power_w_mean)
              .set("distinct_values", static_cast<double>(r.distinct_values))
              .set("update_interval_s", r.update_interval_s > 0 ? r.update_interval_s : NAN)
              .set("lag_correction_s", r.lag_correction_s)
              .set("largest_gap_s", r.largest_gap_s)
              .set("frozen", r.frozen);
          rails.push_back(o.str(0));
        }
        JsonObject w;
        w.set("time_s", m.time_s())
            .set("samples", static_cast<double>(m.samples))
            .set("read_failures", static_cast<double>(m.read_failures))
            .set("missed_deadlines", static_cast<double>(m.missed_deadlines))
            .set_raw("rails", json_list(rails));
        json.set("measurement", w);
      } else {
        std::cout << "\n" << measurement_text(m);
      }
    }
    if (opt->json) std::cout << json.str() << "\n";
    if (!any_ok) std::cerr << "edpbench: every sensor read failed\n";
    return any_ok && std::cout ? 0 : 1;
  };
}

}  // namespace

static edp::cli::CommandRegistration reg(40, "sensors", "List power sensors and print readings",
                                         setup);

}  // namespace edp::cli::sensors_command
