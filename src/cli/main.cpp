// edpbench entry point: builds the CLI from the registered subcommands and
// maps errors to the exit codes of DESIGN §6.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include "cli/command.h"
#include "cli/generated_docs.h"
#include "common/errors.h"
#include "common/text.h"
#include "edpbench/config.h"

namespace edp::cli {
void check_output_file(const std::string& option, const std::string& path) {
  const auto slash = path.find_last_of('/');
  const std::string dir = slash == std::string::npos ? "." : path.substr(0, slash + 1);
  struct stat st {};
  if (::stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
    throw edp::UsageError(option + " " + path + ": the directory '" + dir +
                          "' does not exist (create it or choose another path)");
  if (::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode))
    throw edp::UsageError(option + " " + path + ": not a regular file");
}

std::vector<CommandSpec>& command_registry() {
  static std::vector<CommandSpec> registry;
  return registry;
}
}  // namespace edp::cli

namespace {

// Edits (insert, delete, substitute, swap two neighbours) from a to b:
// "mesure" is 1 from "measure", "rnu" 1 from "run".
size_t edit_distance(const std::string& a, const std::string& b) {
  const size_t n = a.size(), m = b.size();
  std::vector<std::vector<size_t>> d(n + 1, std::vector<size_t>(m + 1, 0));
  for (size_t i = 0; i <= n; ++i) d[i][0] = i;
  for (size_t j = 0; j <= m; ++j) d[0][j] = j;
  for (size_t i = 1; i <= n; ++i)
    for (size_t j = 1; j <= m; ++j) {
      d[i][j] = std::min(
          {d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[n][m];
}

// The subcommands nearest to a mistyped one (as git and cargo suggest):
// within 2 edits, or those it begins; empty when none is near.
std::vector<std::string> nearest_commands(const std::string& typed,
                                          const std::vector<std::string>& names) {
  size_t best = 3;
  std::vector<std::string> out;
  for (const auto& name : names) {
    size_t d = edit_distance(typed, name);
    if (typed.size() >= 2 && name.compare(0, typed.size(), typed) == 0) d = std::min<size_t>(d, 1);
    if (d < best) {
      best = d;
      out.clear();
    }
    if (d == best) out.push_back(name);
  }
  return out;
}

// CLI11 2.1 joins the arguments it did not expect in reverse ("not
// expected: step.csv --trace"); they are said here in the order typed,
// with the subcommand they were given to.
int unexpected_arguments(const CLI::App& app, const CLI::ExtrasError& e) {
  const CLI::App* where = &app;
  for (const CLI::App* sub : app.get_subcommands()) where = sub;
  std::vector<std::string> extras = where->remaining(false);
  std::string what;
  for (const auto& x : extras) what += (what.empty() ? "" : " ") + x;
  const std::string name =
      where == &app ? std::string("edpbench") : "edpbench " + where->get_name();
  std::cerr << name << ": error: ";
  if (what.empty())
    std::cerr << e.what();
  else
    std::cerr << "unexpected argument" << (extras.size() == 1 ? "" : "s") << ": " << what;
  std::cerr << "\nSee '" << name << " --help' for the options it takes.\n";
  return 2;
}

}  // namespace

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

  // Used by the build (src/cli/CMakeLists.txt), not shown in --help: the man
  // page and the bash completion, from this very app.
  if (argc == 3 && std::strcmp(argv[1], "--generate") == 0) {
    if (std::strcmp(argv[2], "man") == 0) {
      std::cout << man_page(app, EDPBENCH_VERSION);
      return 0;
    }
    if (std::strcmp(argv[2], "bash") == 0) {
      std::cout << bash_completion(app);
      return 0;
    }
    std::cerr << "edpbench: error: --generate " << argv[2] << ": choose man or bash\n";
    return 2;
  }

  // A first word that is no subcommand: say which one was meant, instead of
  // CLI11's "A subcommand is required".
  if (argc >= 2 && argv[1][0] != '-') {
    std::vector<std::string> names;
    for (const auto& spec : specs) names.push_back(spec.name);
    const std::string typed = argv[1];
    if (std::find(names.begin(), names.end(), typed) == names.end()) {
      std::cerr << "edpbench: error: '" << typed << "' is not an edpbench command.";
      const std::vector<std::string> near = nearest_commands(typed, names);
      if (!near.empty()) {
        std::cerr << " Did you mean ";
        for (size_t i = 0; i < near.size(); ++i)
          std::cerr << (i == 0 ? "" : i + 1 == near.size() ? " or " : ", ") << near[i];
        std::cerr << "?";
      }
      std::cerr << "\nThe commands are:";
      for (const auto& n : names) std::cerr << " " << n;
      std::cerr << "\nSee 'edpbench --help'.\n";
      return 2;
    }
  }

  try {
    app.parse(argc, argv);
  } catch (const CLI::ExtrasError& e) {
    return unexpected_arguments(app, e);
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
