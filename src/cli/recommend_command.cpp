// `edpbench recommend RESULTS.csv [--objective edp|energy|time] [--deadline-s S]
// [--battery-wh W] [--csv FILE]` (DESIGN §5): prints the table, and with
// --csv FILE writes the CSV too (--csv - prints the CSV instead of the table).
// With batch-study rows it decides per (workload, size, N) and prints, per
// workload and size, the N from which the GPU wins by time and by energy.
// With operating points (results.csv `operating_point`), each choice is the
// best (device, point) pair, and the CSV names the points.
// Exit 0 when at least one (workload, size) could be decided, 1 when none
// could, 2 on usage errors.
#include <iostream>
#include <memory>

#include "bench/study.h"
#include "cli/command.h"
#include "common/atomic_file.h"
#include "common/errors.h"
#include "report/recommend.h"

namespace {

struct RecommendArgs {
  std::string results;
  std::string objective = "edp";
  double deadline_s = 0;
  double battery_wh = 0;
  std::string csv;
};

int run_recommend(const RecommendArgs& a, const CLI::App& sub) {
  using namespace edp::report;
  RecommendOptions options;
  const auto objective = parse_objective(a.objective);
  if (!objective)
    throw edp::UsageError("unknown objective '" + a.objective + "'; valid: edp, energy, time");
  options.objective = *objective;
  options.studies = edp::bench::study_views();
  if (sub.count("--deadline-s")) {
    if (!(a.deadline_s > 0))
      throw edp::UsageError("--deadline-s must be a positive number of seconds");
    options.deadline_s = a.deadline_s;
  }
  if (sub.count("--battery-wh")) {
    if (!(a.battery_wh > 0))
      throw edp::UsageError("--battery-wh must be a positive number of watt-hours");
    options.battery_wh = a.battery_wh;
  }

  const CsvTable results = load_results_csv(a.results);
  const auto recs = recommend(results, options);
  if (!any_decided(recs)) {
    if (!recs.empty()) std::cerr << recommendations_text(recs, options);
    std::cerr << "edpbench: error: no (workload, size) in " << a.results << " could be decided"
              << (recs.empty() ? ": the file has no configurations" : " (see the notes above)")
              << (a.csv.empty() || a.csv == "-" ? "" : "; " + a.csv + " was not written") << "\n";
    return 1;
  }
  if (a.csv == "-") {  // stdout carries the CSV alone
    std::cout << recommendations_csv(recs);
    return 0;
  }
  if (!a.csv.empty()) {
    edp::write_file_atomic(a.csv, recommendations_csv(recs));
    std::cerr << "edpbench: wrote " << recs.size() << " recommendation"
              << (recs.size() == 1 ? "" : "s") << " to " << a.csv << "\n";
  }
  std::cout << recommendations_text(recs, options);
  // What each study adds for its rows (the batch study's crossover N).
  for (const StudyView& v : options.studies.on_page(results)) {
    if (!v.recommend_notes) continue;
    const std::string notes = v.recommend_notes(rows_of_study(results, v.study), options);
    if (!notes.empty()) std::cout << "\n" << notes;
  }
  return 0;
}

edp::cli::CommandRunner setup(CLI::App& sub) {
  auto args = std::make_shared<RecommendArgs>();
  sub.add_option("results", args->results, "The results.csv written by `edpbench run`")->required();
  sub.add_option("--objective", args->objective, "What to minimise: edp | energy | time")
      ->capture_default_str();  // checked by run(): "unknown objective ...; valid: ..."
  sub.add_option("--deadline-s", args->deadline_s,
                 "Only devices whose mean time per run is at most S seconds qualify")
      ->check(edp::cli::finite_range(1e-9, 1e7));
  sub.add_option("--battery-wh", args->battery_wh,
                 "Battery capacity in Wh: report how many runs fit in one charge")
      ->check(edp::cli::finite_range(1e-6, 1e6));  // inf was accepted
  sub.add_option(
      "--csv", args->csv,
      "Also write the recommendation CSV to FILE (atomically), or print only the CSV with '-'");
  return [args, &sub] { return run_recommend(*args, sub); };
}

edp::cli::CommandRegistration reg(30, "recommend",
                                  "Recommend CPU or GPU per workload and size from results.csv",
                                  setup);

}  // namespace
