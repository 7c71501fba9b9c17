// results.csv and runs.csv as `recommend` and `report` read them: the input
// is results.csv, optionally followed by "\n====\n" and runs.csv, and by a
// second separator and context.json. parse_csv either returns a table or
// throws runtime_error; the recommendation and the HTML page are then built
// from whatever parsed, as the commands do; then `compare` and the
// cross-board report over two copies of it.
//
// The commands get the studies' views from bench's registry
// (bench::study_views()); this fuzzer links report alone, so it registers
// every view report has under the names the registry gives them, and each
// section's drawing code reads the fuzzed rows (a study named in the input
// and in none of them gets results_view(), as on a real page).
#include <stdexcept>

#include "common/errors.h"
#include "fuzz_common.h"
#include "report/compare.h"
#include "report/csv.h"
#include "report/html_boards.h"
#include "report/html_report.h"
#include "report/recommend.h"
#include "report/section_views.h"

namespace {
const edp::report::StudyViews& views() {
  using namespace edp::report;
  static const StudyViews v({results_view("mlp"), batch_view("batch"), stages_view("stages"),
                             ops_view("ops"), deploy_view("deploy")});
  return v;
}

std::optional<edp::report::CsvTable> table(const std::string& text, const char* origin) {
  try {
    return edp::report::parse_csv(text, origin);
  } catch (const std::runtime_error&) {
    return std::nullopt;
  }
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace edp::report;
  const auto parts = edp::fuzz::split(edp::fuzz::text(data, size), "\n====\n");
  const auto results = table(parts[0], "results.csv");
  if (!results) return 0;
  (void)missing_columns(*results, required_result_columns());
  for (Objective o : {Objective::edp, Objective::energy, Objective::time}) {
    RecommendOptions opt;
    opt.objective = o;
    opt.deadline_s = 1.0;
    opt.battery_wh = 10.0;
    opt.studies = views();
    const auto recs = recommend(*results, opt);
    (void)recommendations_csv(recs);
    (void)recommendations_text(recs, opt);
  }
  ReportData d;
  d.title = "fuzz";
  d.results = *results;
  if (parts.size() > 1) d.runs = table(parts[1], "runs.csv");
  if (parts.size() > 2) {
    try {
      d.context = parse_json(parts[2], "context.json");
    } catch (const std::runtime_error&) {
    }
  }
  (void)render_html_report(d, views());
  // compare and the cross-board report over the same data: make_sweep either
  // accepts the pair of files or refuses them with a UsageError.
  try {
    const LoadedSweep s = make_sweep(d);
    CompareOptions copt;
    copt.studies = views();
    const Comparison c = compare_sweeps({s, s}, copt);
    (void)comparison_text(c);
    (void)comparison_csv(c);
    (void)comparison_json(c);
    (void)find_regressions(c, CompareMetric::energy, 1.0);
    RecommendOptions ropt;
    ropt.studies = views();
    (void)render_boards_report({s, s}, ropt);
  } catch (const edp::UsageError&) {
  }
  return 0;
}
