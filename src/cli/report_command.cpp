// `edpbench report DIR [-o report.html]`: one self-contained HTML file with the
// time, energy and EDP figures, the recommendation and the run context.
#include <iostream>
#include <memory>

#include "cli/command.h"
#include "report/html_report.h"

namespace {

struct ReportArgs {
  std::string dir;
  std::string out;
};

edp::cli::CommandRunner setup(CLI::App& sub) {
  auto args = std::make_shared<ReportArgs>();
  sub.add_option("dir", args->dir, "Output directory of `edpbench run` (results.csv, ...)")
      ->required();
  sub.add_option("-o,--output", args->out, "HTML file to write (default: DIR/report.html)");
  return [args] {
    const std::string out = args->out.empty() ? args->dir + "/report.html" : args->out;
    const auto summary = edp::report::write_html_report(args->dir, out);
    for (const auto& w : summary.warnings) std::cerr << "edpbench: warning: " << w << "\n";
    std::cerr << "edpbench: wrote " << out << " (" << summary.configurations
              << " configurations)\n";
    return 0;
  };
}

edp::cli::CommandRegistration reg(35, "report",
                                  "Write a self-contained HTML report of a results directory",
                                  setup);

}  // namespace
