// The power options every command that measures takes (DESIGN §6): `run`,
// `ops`, `plan` (its dry run), `measure` and `sensors` add them to their
// subcommand with one call, so that each has the same names, value ranges
// and messages. Values are kept as the user typed them and set through the
// config's key table (bench/config/config_keys.h), as a config file's `power:`
// values are: "--rate-hz 0.5: 'rate_hz' = 0.5 is out of range [1, 10000]"
// on every command, as in a config. The monitor's constructor takes the same
// options under their Python names (docs/cli.md lists both).
#pragma once

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

#include "bench/engine/session_options.h"
#include "bench/studies/config_schema.h"

namespace edp::cli {

class PowerFlags {
 public:
  // Adds --power-source, --trace, --sysfs-root, --total-rails and --rate-hz
  // (and -v/--verbose, which shows the sensors' discovery log) to `sub`.
  // `source_alias`: also accept the option under this older name
  // ("--source" on `sensors`).
  void add_to(CLI::App& sub, const std::string& source_alias = "");

  // Sets what was given on the config's power: section (run, ops, plan: the
  // command line overrides the config) or on a session's options (measure,
  // sensors). Every problem at once, as a UsageError, one per line. --trace
  // alone implies --power-source trace; with another source it is an error.
  void apply(bench::Config& c) const;
  void apply(bench::SessionOptions& o) const;

  const std::string& sysfs_root() const { return sysfs_root_; }
  bool verbose() const { return verbose_; }

 private:
  std::string source_, trace_, sysfs_root_, rate_hz_;
  std::vector<std::string> total_rails_;
  bool verbose_ = false;
};

// How these flags name the session's keys ("power.rate_hz" -> "--rate-hz"),
// for the session's own validation messages; other keys as they are.
std::string power_option_name(const std::string& path);

}  // namespace edp::cli
