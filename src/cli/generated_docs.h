// The man page and the bash completion, generated from the CLI11 app that
// main() builds (`edpbench --generate man|bash`, run by the build): a
// subcommand or option added to a command appears in both with no other
// change. The reference prose stays in docs/.
#pragma once

#include <CLI/CLI.hpp>

#include <string>

namespace edp::cli {

// edpbench.1 in roff (man(7)): NAME, SYNOPSIS, DESCRIPTION, one subsection
// per subcommand with its positionals and options, EXIT STATUS, SEE ALSO.
std::string man_page(const CLI::App& app, const std::string& version);
// A bash completion script: subcommands after `edpbench`, each one's
// options after it, file names elsewhere.
std::string bash_completion(const CLI::App& app);

}  // namespace edp::cli
