// `edpbench recommend RESULTS.csv|DIR [--objective edp|energy|time] [--deadline-s S]
// [--battery-wh W] [--csv FILE]` (DESIGN §5): prints the table, and with
// --csv FILE writes the CSV too (--csv - prints the CSV instead of the table).
// With batch-study rows it decides per (workload, size, N) and prints, per
// workload and size, the N from which the GPU wins by time and by energy.
// With operating points (results.csv `operating_point`), each choice is the
// best (device, point) pair, and the CSV names the points.
// With --rate R (and --battery-wh W, optionally --latency-ms L and
// --arrivals), RESULTS is a deploy.csv or its sweep directory: it prints the
// hours on a charge per device at that request rate, the choice with its
// confidence and the rates where the choice changes (docs/deploy.md).
// --json prints the recommendations as one JSON object instead of the table.
// Exit 0 when at least one (workload, size) or deploy task could be decided,
// 1 when none could, 2 on usage errors.
#include <algorithm>
#include <iostream>
#include <memory>

#include "bench/studies/registry.h"
#include "bench/studies/study.h"
#include "cli/command.h"
#include "common/atomic_file.h"
#include "common/errors.h"
#include "common/json.h"
#include "common/safe_file.h"
#include "common/text.h"
#include "report/deploy_csv.h"
#include "report/deploy_recommend.h"
#include "report/recommend.h"
#include "report/report_data.h"
#include "report/section_views.h"

namespace edp::cli::recommend_command {
namespace {

struct RecommendArgs {
  std::string results;
  std::string objective = "edp";
  double deadline_s = 0;
  double battery_wh = 0;
  std::string csv;
  bool json = false;
  double rate_hz = 0, latency_ms = 0;
  std::string arrivals = "poisson";
};

std::string number_or_null(const std::optional<double>& v) {
  return v ? edp::json_number(*v) : "null";
}

std::string json_list(const std::vector<std::string>& items) {
  std::string out = "[";
  for (size_t i = 0; i < items.size(); ++i) out += (i ? "," : "") + items[i];
  return out + "]";
}

std::string standing_json(const std::optional<edp::report::DeviceStanding>& d) {
  if (!d) return "null";
  edp::JsonObject o;
  o.set("device", d->label)
      .set("operating_point", d->point)
      .set_raw("value", number_or_null(d->value))
      .set_raw("ci95", number_or_null(d->ci95))
      .set_raw("time_s", number_or_null(d->time_s))
      .set_raw("energy_j", number_or_null(d->energy_j))
      .set("meets_deadline", d->meets_deadline);
  return o.str(0);
}

// One object: the objective, the deadline and one entry per (workload, size
// [, batch]), with the same content as the CSV and the notes.
std::string recommendations_json(const std::vector<edp::report::Recommendation>& recs,
                                 const edp::report::RecommendOptions& options) {
  using namespace edp::report;
  std::vector<std::string> items;
  for (const auto& r : recs) {
    std::vector<std::string> notes;
    for (const auto& n : r.notes) notes.push_back(edp::json_string(n));
    edp::JsonObject o;
    o.set("workload", r.workload)
        .set("size", r.size)
        .set("batch", r.batch)
        .set("choice", r.choice)
        .set("operating_point", r.operating_point)
        .set_raw("cpu", standing_json(r.cpu))
        .set_raw("gpu", standing_json(r.gpu))
        .set_raw("ratio", number_or_null(r.ratio))
        .set_raw("confident", r.confident ? (*r.confident ? "true" : "false") : "null")
        .set_raw("runs_per_charge", r.runs_per_charge ? std::to_string(*r.runs_per_charge) : "null")
        .set_raw("notes", json_list(notes));
    items.push_back(o.str(0));
  }
  edp::JsonObject out;
  out.set("objective", objective_name(options.objective))
      .set_raw("deadline_s", number_or_null(options.deadline_s))
      .set_raw("battery_wh", number_or_null(options.battery_wh))
      .set("decided", any_decided(recs))
      .set_raw("recommendations", json_list(items));
  return out.str(2) + "\n";
}

// recommend --rate: the deploy study's battery life at a request rate.
int run_deploy_recommend(const RecommendArgs& a, const CLI::App& sub) {
  using namespace edp::report;
  for (const char* other : {"--objective", "--deadline-s", "--csv", "--json"})
    if (sub.count(other))
      throw edp::UsageError(std::string(other) +
                            " does not apply with --rate (a deploy.csv is ranked by hours on "
                            "a charge); drop it, or drop --rate to rank a results.csv");
  if (!sub.count("--battery-wh"))
    throw edp::UsageError("--rate needs --battery-wh W: the battery's capacity in watt-hours");
  if (a.arrivals != "poisson" && a.arrivals != "periodic")
    throw edp::UsageError("--arrivals '" + a.arrivals +
                          "' is not valid (expected poisson or periodic)");
  DeployOptions options;
  options.load.rate_hz = a.rate_hz;
  options.load.arrivals = a.arrivals == "periodic" ? Arrivals::periodic : Arrivals::poisson;
  options.battery_wh = a.battery_wh;
  if (sub.count("--latency-ms")) options.latency_s = a.latency_ms / 1e3;
  const CsvTable table = load_deploy_csv(a.results);
  const auto recs = deploy_recommend(table, options);
  const std::string text = deploy_recommendations_text(recs, options);
  if (!any_deploy_choice(recs)) {
    std::cerr << text << "edpbench: error: no task in " << a.results
              << " could be decided at this rate"
              << (recs.empty() ? ": the file has no measured items" : " (see the notes above)")
              << "\n";
    return 1;
  }
  std::cout << text;
  return 0;
}

// What to say of a results.csv with no configuration. `dir` is its sweep
// directory, or empty for a CSV that is not a sweep's results.csv. A sweep
// whose studies keep their rows elsewhere ran fine, and the words say where
// to look; else the sweep did not run (the words compare and report use).
std::string empty_results_problem(const std::string& file, const std::string& dir) {
  if (dir.empty()) return file + " has no configuration (a header and no rows)";
  const auto own = edp::report::own_study_files(dir);
  if (own.empty()) return edp::report::not_run_problem(dir);
  const bool deploy = std::find(own.begin(), own.end(), "deploy.csv") != own.end();
  return edp::report::rows_elsewhere_problem(file, "recommend from", own) +
         (deploy ? " (`edpbench recommend " + dir +
                       " --rate R --battery-wh W` ranks the deploy study's choices)"
                 : " (`edpbench report " + dir + "` shows them)");
}

int run_recommend(const RecommendArgs& a, const CLI::App& sub) {
  using namespace edp::report;
  if (sub.count("--rate")) return run_deploy_recommend(a, sub);
  for (const char* deploy_only : {"--latency-ms", "--arrivals"})
    if (sub.count(deploy_only))
      throw edp::UsageError(std::string(deploy_only) +
                            " applies only with --rate R (a deploy.csv's battery life at a "
                            "request rate)");
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

  if (a.json && a.csv == "-") throw edp::UsageError("--json and --csv -: choose one for stdout");
  // A sweep directory stands for its results.csv, as in report and compare;
  // `dir` is the sweep's directory where RESULTS names one or its results.csv.
  std::string file = a.results, dir;
  if (edp::is_directory(a.results)) {
    dir = a.results;
    while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
    file = dir + "/results.csv";
    if (!edp::path_present(file)) throw edp::UsageError(no_results_problem(dir));
  } else if (edp::path_base_name(a.results) == "results.csv") {
    const auto slash = a.results.rfind('/');
    dir = slash == std::string::npos ? "." : a.results.substr(0, std::max<size_t>(slash, 1));
  }
  const CsvTable results = load_results_csv(file);
  const auto recs = recommend(results, options);
  if (a.json) std::cout << recommendations_json(recs, options);
  if (!any_decided(recs)) {
    if (!recs.empty() && !a.json)
      std::cerr << edp::terminal_text(recommendations_text(recs, options), true);
    const std::string not_written =
        a.csv.empty() || a.csv == "-" ? "" : "; " + a.csv + " was not written";
    if (results.rows.empty()) {
      std::cerr << "edpbench: error: " << empty_results_problem(file, dir) << not_written << "\n";
      return 1;
    }
    std::cerr << "edpbench: error: no (workload, size) in " << file << " could be decided"
              << (recs.empty() ? ": the file has no configurations" : " (see the notes above)")
              << not_written << "\n";
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
  if (a.json) return 0;
  std::cout << edp::terminal_text(recommendations_text(recs, options), true);
  // What each study adds for its rows (the batch study's crossover N).
  for (const StudyView& v : views_on_page(options.studies, results)) {
    if (!v.recommend_notes) continue;
    const std::string notes = v.recommend_notes(rows_of_study(results, v.study), options);
    if (!notes.empty()) std::cout << "\n" << edp::terminal_text(notes, true);
  }
  return 0;
}

edp::cli::CommandRunner setup(CLI::App& sub) {
  auto args = std::make_shared<RecommendArgs>();
  sub.add_option("results", args->results,
                 "The results.csv written by `edpbench run`, or its directory; with --rate, a "
                 "deploy.csv or its directory")
      ->required();
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
  sub.add_flag("--json", args->json,
               "Print the recommendations as one JSON object on stdout instead of the table");
  sub.add_option("--rate", args->rate_hz,
                 "Requests per second: the deploy study's hours on a charge at this rate "
                 "(RESULTS is a deploy.csv; needs --battery-wh)")
      ->check(edp::cli::finite_range(1e-6, 1e6));
  sub.add_option("--latency-ms", args->latency_ms,
                 "With --rate: only choices whose p99 request latency is at most L ms")
      ->check(edp::cli::finite_range(1e-6, 1e9));
  sub.add_option("--arrivals", args->arrivals,
                 "With --rate: how requests arrive, poisson | periodic")
      ->capture_default_str();
  return [args, &sub] { return run_recommend(*args, sub); };
}

edp::cli::CommandRegistration reg(30, "recommend",
                                  "Recommend CPU or GPU per workload and size from results.csv",
                                  setup);

}  // namespace

}  // namespace edp::cli::recommend_command
