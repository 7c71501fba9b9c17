// `edpbench report DIR [DIR...] [-o report.html] [--objective O] [--deadline-s S]`:
// one self-contained HTML file. One directory: the time, energy and EDP
// figures, the recommendation and the run context. Several (other boards,
// operating points, releases): the cross-board report, which compares them
// per configuration and recommends across boards.
#include <iostream>
#include <memory>

#include "bench/studies/registry.h"
#include "bench/studies/study.h"
#include "cli/command.h"
#include "common/atomic_file.h"
#include "common/errors.h"
#include "report/html_boards.h"
#include "report/html_report.h"
#include "report/report_data.h"

namespace edp::cli::report_command {
namespace {

struct ReportArgs {
  std::vector<std::string> dirs;
  std::string out;
  std::string objective = "energy";
  double deadline_s = 0;
};

int run_report(const ReportArgs& a) {
  using namespace edp::report;
  if (a.dirs.size() == 1) {
    const std::string out = a.out.empty() ? a.dirs[0] + "/report.html" : a.out;
    const auto summary = write_html_report(a.dirs[0], out, edp::bench::study_views());
    for (const auto& w : summary.warnings) std::cerr << "edpbench: warning: " << w << "\n";
    // An empty sweep still gets its (empty) report, with the words compare
    // and recommend use; a sweep of the studies with files of their own
    // (ops, stages, deploy) has its rows there.
    if (summary.configurations == 0 && own_study_files(a.dirs[0]).empty())
      std::cerr << "edpbench: warning: " << not_run_problem(a.dirs[0]) << "\n";
    std::cerr << "edpbench: wrote " << out << " (" << summary.configurations
              << " configurations)\n";
    return 0;
  }
  RecommendOptions opt;
  opt.studies = edp::bench::study_views();
  const auto objective = parse_objective(a.objective);
  if (!objective)
    throw edp::UsageError("--objective '" + a.objective + "' is unknown; use energy, time or edp");
  opt.objective = *objective;
  if (a.deadline_s > 0) opt.deadline_s = a.deadline_s;
  std::vector<LoadedSweep> sweeps;
  for (const auto& d : a.dirs) sweeps.push_back(load_sweep(d));
  const std::string out = a.out.empty() ? "report.html" : a.out;
  edp::write_file_atomic(out, render_boards_report(sweeps, opt));
  size_t configs = 0;
  for (const auto& s : sweeps) configs += s.data.results.rows.size();
  std::cerr << "edpbench: wrote " << out << " (" << sweeps.size() << " sweeps, " << configs
            << " configurations)\n";
  return 0;
}

edp::cli::CommandRunner setup(CLI::App& sub) {
  auto args = std::make_shared<ReportArgs>();
  sub.add_option("dirs", args->dirs,
                 "Output directories of `edpbench run`; several give the cross-board report")
      ->required()
      ->expected(-1);
  sub.add_option("-o,--output", args->out,
                 "HTML file to write (default: DIR/report.html; with several DIRs report.html)");
  sub.add_option("--objective", args->objective,
                 "Cross-board recommendation: lowest energy (default), time or edp")
      ->check(CLI::IsMember({"energy", "time", "edp"}));  // bogus was accepted with one DIR
  sub.add_option("--deadline-s", args->deadline_s,
                 "Cross-board recommendation: only choices with a mean time per run <= S")
      ->check(edp::cli::finite_range(1e-9, 1e7));
  return [args] { return run_report(*args); };
}

edp::cli::CommandRegistration reg(35, "report",
                                  "Write a self-contained HTML report of one results directory, "
                                  "or a cross-board report of several",
                                  setup);

}  // namespace

}  // namespace edp::cli::report_command
