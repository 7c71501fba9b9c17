// Subcommand registry. Each src/cli/<name>_command.cpp defines one static
// CommandRegistration; main() builds the CLI11 app from all of them. A
// command's setup function declares its options on the subcommand and
// returns the function that runs it, whose return value is the exit code.
#pragma once

#include <sys/stat.h>
#include <CLI/CLI.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

namespace edp::cli {

using CommandRunner = std::function<int()>;
using CommandSetup = std::function<CommandRunner(CLI::App& sub)>;

struct CommandSpec {
  int order;  // position in --help
  std::string name;
  std::string description;
  CommandSetup setup;
};

std::vector<CommandSpec>& command_registry();

// A number from `lo` to `hi`, written in decimal: nan, inf and hex refused
// (CLI::Range lets nan through, and strtod reads "inf" and "0x10").
inline CLI::Validator finite_range(double lo, double hi) {
  return CLI::Validator(
      [lo, hi](std::string& s) -> std::string {
        const bool decimal = !s.empty() && s.find_first_not_of("0123456789.+-eE") == s.npos;
        char* end = nullptr;
        const double v = decimal ? std::strtod(s.c_str(), &end) : 0;
        if (!decimal || end != s.c_str() + s.size() || !std::isfinite(v))
          return "'" + s + "' is not a finite decimal number";
        if (v < lo || v > hi) {
          char range[64];
          std::snprintf(range, sizeof range, "%g to %g", lo, hi);
          return "'" + s + "' is outside " + range;
        }
        return "";
      },
      "NUMBER");
}

// An output file named on the command line (`--json FILE`) that cannot be
// written is a usage error found before any work: its directory must exist
// and the path, if present, be a regular file.
void check_output_file(const std::string& option, const std::string& path);

struct CommandRegistration {
  CommandRegistration(int order, std::string name, std::string description, CommandSetup setup) {
    command_registry().push_back(
        {order, std::move(name), std::move(description), std::move(setup)});
  }
};

}  // namespace edp::cli
