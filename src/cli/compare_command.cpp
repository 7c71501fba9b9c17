// `edpbench compare A B [C...] [--csv|--json] [--alpha P]
// [--fail-on-regression PCT [--metric energy|time|edp|dynamic_energy]]`:
// result directories (or results.csv files) side by side, the first as the
// base. Exit 0; 1 when --fail-on-regression found a significant regression
// above PCT; 2 for bad inputs (no results, nothing in common, runs.csv that
// does not match results.csv) or options.
#include <cmath>
#include <iostream>
#include <memory>

#include "bench/studies/registry.h"
#include "bench/studies/study.h"
#include "cli/command.h"
#include "common/errors.h"
#include "common/text.h"
#include "report/compare.h"

namespace edp::cli::compare_command {
namespace {

struct CompareArgs {
  std::vector<std::string> inputs;
  bool csv = false, json = false;
  double alpha = 0.05;
  double fail_pct = -1;
  std::string metric = "energy";
};

int run_compare(const CompareArgs& a) {
  using namespace edp::report;
  if (a.inputs.size() < 2)
    throw edp::UsageError("compare needs two result directories or more: edpbench compare A B");
  if (a.csv && a.json) throw edp::UsageError("--csv and --json exclude each other; pick one");
  const auto metric = parse_compare_metric(a.metric);
  if (!metric)
    throw edp::UsageError("--metric '" + a.metric +
                          "' is unknown; use energy, time, edp or dynamic_energy");
  if (!(a.alpha > 0 && a.alpha < 1))
    throw edp::UsageError("--alpha must lie between 0 and 1 (e.g. 0.05)");
  std::vector<LoadedSweep> sweeps;
  for (const auto& in : a.inputs) sweeps.push_back(load_sweep(in));
  CompareOptions opt;
  opt.alpha = a.alpha;
  opt.studies = edp::bench::study_views();
  const Comparison c = compare_sweeps(sweeps, opt);
  if (a.csv || a.json) {
    std::cout << (a.csv ? comparison_csv(c) : comparison_json(c));
    for (const auto& n : c.context_notes)
      std::cerr << "edpbench: warning: " << edp::terminal_text(n) << "\n";
  } else {
    std::cout << edp::terminal_text(comparison_text(c), true);
  }
  if (a.fail_pct >= 0) {
    const auto regs = find_regressions(c, *metric, a.fail_pct);
    for (const auto& r : regs) {
      const std::string why =
          std::isnan(r.change_pct) ? r.untested + ", so not passed"
          : r.untested.empty()
              ? "p=" + edp::fmt("%.2g", r.p) + edp::fmt(", above %g%%", a.fail_pct)
              : "not tested: " + r.untested + edp::fmt("; above %g%%, so not passed", a.fail_pct);
      const std::string change =
          std::isnan(r.change_pct) ? " not measured in " : edp::fmt(" +%.1f%% in ", r.change_pct);
      std::cerr << edp::terminal_text("edpbench: regression: " + r.config + ": " +
                                      metric_name(*metric) + change + r.sweep + " (" + why + ")")
                << "\n";
    }
    if (!regs.empty()) return 1;
    std::cerr << "edpbench: no significant " << metric_name(*metric) << " regression above "
              << a.fail_pct << "%\n";
  }
  return 0;
}

edp::cli::CommandRunner setup(CLI::App& sub) {
  auto args = std::make_shared<CompareArgs>();
  sub.add_option("sweeps", args->inputs,
                 "Result directories of `edpbench run` (or their results.csv); the first is the "
                 "base")
      ->required()
      ->expected(-2);
  sub.add_flag("--csv", args->csv, "Print the comparison as CSV instead of tables");
  sub.add_flag("--json", args->json, "Print the comparison as JSON instead of tables");
  sub.add_option("--alpha", args->alpha, "Significance level of the U test (default 0.05)")
      ->check(edp::cli::finite_range(1e-9, 0.5));
  sub.add_option("--fail-on-regression", args->fail_pct,
                 "Exit 1 when a significant increase of --metric exceeds PCT percent")
      ->check(edp::cli::finite_range(0, 1e6));  // nan passed NonNegativeNumber: exit 0
  sub.add_option("--metric", args->metric,
                 "What --fail-on-regression watches: energy (default), time, edp, dynamic_energy");
  return [args] { return run_compare(*args); };
}

edp::cli::CommandRegistration reg(33, "compare",
                                  "Compare sweeps: changes per configuration with a U test", setup);

}  // namespace

}  // namespace edp::cli::compare_command
