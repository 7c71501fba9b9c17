// Subcommand registry. Each src/cli/<name>_command.cpp defines one static
// CommandRegistration; main() builds the CLI11 app from all of them. A
// command's setup function declares its options on the subcommand and
// returns the function that runs it, whose return value is the exit code.
#pragma once

#include <CLI/CLI.hpp>

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

struct CommandRegistration {
  CommandRegistration(int order, std::string name, std::string description, CommandSetup setup) {
    command_registry().push_back(
        {order, std::move(name), std::move(description), std::move(setup)});
  }
};

}  // namespace edp::cli
