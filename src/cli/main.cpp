// edpbench entry point: builds the CLI from the registered subcommands and
// maps errors to the exit codes of DESIGN §6.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <exception>
#include <iostream>

#include "cli/command.h"
#include "common/errors.h"
#include "common/text.h"
#include "edpbench/config.h"

namespace edp::cli {
std::vector<CommandSpec>& command_registry() {
  static std::vector<CommandSpec> registry;
  return registry;
}
}  // namespace edp::cli

int main(int argc, char** argv) {
  using namespace edp::cli;
  CLI::App app{"edpbench: time, energy and EDP of MLP training on CPU and GPU"};
  app.set_version_flag("--version", std::string("edpbench ") + EDPBENCH_VERSION);
  app.require_subcommand(1);

  auto& specs = command_registry();
  std::sort(specs.begin(), specs.end(),
            [](const CommandSpec& a, const CommandSpec& b) { return a.order < b.order; });
  std::vector<std::pair<CLI::App*, CommandRunner>> runners;
  for (auto& spec : specs) {
    CLI::App* sub = app.add_subcommand(spec.name, spec.description);
    runners.emplace_back(sub, spec.setup(*sub));
  }

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // CLI11 maps --help/--version to success and usage errors to non-zero;
    // every usage error exits 2 as DESIGN §6 requires.
    const int rc = app.exit(e);
    return rc == 0 ? 0 : 2;
  }

  try {
    for (auto& [sub, run] : runners) {
      if (sub->parsed()) return run();
    }
  } catch (const edp::UsageError& e) {
    std::cerr << "edpbench: error: " << edp::terminal_text(e.what(), true) << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "edpbench: error: " << edp::terminal_text(e.what(), true) << "\n";
    return 1;
  }
  return 2;
}
