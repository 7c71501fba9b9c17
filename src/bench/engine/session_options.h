// What a measuring session is built from (DESIGN §3, §7): one struct for
// every client that measures (`run`, `ops`, `plan`, `measure`, the monitor
// API and, later, the exporter), checked by the config's key table
// (config_keys.cpp), so that every surface accepts the same power options
// with the same names, ranges and messages.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "bench/config/config.h"

namespace edp::bench {

struct SessionOptions {
  // The config's `power:` section (keys power.*): source, trace, rate,
  // total rails, baseline_s and baseline_every, min_run_s, settle_s,
  // sampler CPU, INA226 settings.
  PowerConfig power;
  // Re-roots every /sys, /proc and /dev path (--sysfs-root: tests,
  // containers); not a config key.
  std::string sysfs_root;
  double cooldown_s = 0;        // pause before every run (cooldown_s)
  double max_start_temp_c = 0;  // wait until every zone is cooler (0: off)
};

// The session part of a config.
SessionOptions session_options(const Config& c, const std::string& sysfs_root);

// The config keys a SessionOptions holds (power.*, cooldown_s,
// max_start_temp_c), in the table's order.
const std::vector<std::string>& session_option_keys();

// How a surface names an option: the key path ("power.rate_hz") as that
// surface spells it ("--rate-hz", "rate_hz").
using OptionNamer = std::function<std::string(const std::string& path)>;

// Every problem with `o`, each value read back through the key table as a
// config file's value is read: "OPTION VALUE: message", OPTION from `name`.
std::vector<std::string> session_option_problems(const SessionOptions& o, const OptionNamer& name);
// Throws UsageError with every problem, one per line.
void validate_session_options(const SessionOptions& o, const OptionNamer& name);

}  // namespace edp::bench
