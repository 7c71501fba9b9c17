// Loading one sweep for `compare`: results.csv through the report's reader,
// runs.csv matched to it row by row, by column name (the runs of studies
// with files of their own, ops and stages, are not compared).

#include <cmath>
#include <map>
#include <set>
#include <utility>

#include "common/errors.h"
#include "common/safe_file.h"
#include "common/text.h"
#include "report/columns.h"
#include "report/compare.h"
#include "report/csv.h"
#include "report/html_util.h"

namespace edp::report {

namespace {

// How far results.csv's mean may be from its runs' mean, relative: 9
// significant digits are written; a value rounded to 6 by hand still passes.
constexpr double kMeanTolerance = 1e-5;

// The columns a runs.csv row and its results.csv row share, by name: runs.csv
// has no threads or n; two devices of one kind differ in their label (cpu,
// cpu#2), a batch row's N is in its key.
const std::vector<std::string> kRunMatchColumns{col::workload,        col::size,  col::device,
                                                col::operating_point, col::study, col::key};

std::string join_key(const CsvTable& t, size_t r, const std::vector<std::string>& cols) {
  std::string k;
  for (const auto& c : cols) k += t.get(r, c) + '\x1f';
  return k;
}

std::string describe_row(const CsvTable& t, size_t r, const std::vector<std::string>& cols) {
  std::string d;
  for (const auto& c : cols) {
    const std::string v = t.get(r, c);
    if (!v.empty()) d += (d.empty() ? "" : " ") + c + "=" + v;
  }
  return d;
}

}  // namespace

LoadedSweep load_sweep(const std::string& path) {
  std::string dir = path;
  if (!is_directory(path)) {
    if (path_base_name(path) != "results.csv")
      throw UsageError(path +
                       " is neither a results directory nor a results.csv; pass the --out "
                       "directory of `edpbench run`");
    const auto slash = path.rfind('/');
    dir = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
  }
  return make_sweep(load_report_data(dir));  // UsageError: missing or malformed results.csv
}

LoadedSweep make_sweep(ReportData data) {
  LoadedSweep s;
  s.data = std::move(data);
  s.label = s.data.title;
  const std::string dir = s.data.dir.empty() ? s.data.title : s.data.dir;
  const CsvTable& res = s.data.results;
  if (res.rows.empty()) {
    // A sweep of studies that keep their rows in files of their own (ops,
    // stages, deploy) ran fine: say that, not "did it run?".
    const auto own = own_study_files(dir);
    if (!own.empty())
      throw UsageError(rows_elsewhere_problem(dir + "/results.csv", "compare", own) +
                       ", which compare does not read (compare sweeps of the mlp or batch "
                       "studies; `edpbench report " +
                       dir + "` shows this one)");
    throw UsageError(not_run_problem(dir));
  }
  s.run_rows.assign(res.rows.size(), {});
  // compare tests a change on the runs: a runs.csv that is there but cannot
  // be read must not turn the test, and --fail-on-regression, off.
  if (!s.data.runs_unreadable.empty())
    throw UsageError(s.data.runs_unreadable +
                     " (compare tests each change on the runs of runs.csv; restore the sweep's "
                     "runs.csv, or move it away to compare the means alone)");
  if (!s.data.runs) return s;
  const CsvTable& runs = *s.data.runs;

  std::vector<std::string> cols;
  for (const auto& c : kRunMatchColumns)
    if (res.column(c) >= 0 && runs.column(c) >= 0) cols.push_back(c);
  for (const char* c : {col::workload, col::size, col::device})
    if (runs.column(c) < 0)
      throw UsageError(dir + "/runs.csv has no column '" + c +
                       "'; it does not belong to this results.csv (header: workload,size,device,"
                       "run,...)");
  std::map<std::string, size_t> by_key;
  std::set<std::string> studies;  // those whose results are in results.csv
  for (size_t r = 0; r < res.rows.size(); ++r) {
    by_key.emplace(join_key(res, r, cols), r);
    studies.insert(row_study(res, r));
  }
  const bool by_study = res.column(col::study) >= 0 && runs.column(col::study) >= 0;
  for (size_t r = 0; r < runs.rows.size(); ++r) {
    // The runs of a study that keeps its results in a file of its own (ops.csv,
    // stages.csv) have no results.csv row to match.
    if (by_study && !studies.count(row_study(runs, r))) continue;
    const auto it = by_key.find(join_key(runs, r, cols));
    if (it == by_key.end())
      throw UsageError(dir + "/runs.csv line " + std::to_string(runs.line_of(r)) + ": a run of (" +
                       describe_row(runs, r, cols) +
                       ") but results.csv has no such configuration; the two files are from "
                       "different sweeps (copy them together, or rerun with --resume)");
    s.run_rows[it->second].push_back(r);
  }
  for (size_t r = 0; r < res.rows.size(); ++r) {
    if (res.get(r, col::status) != "ok") continue;
    const auto expected = parse_count(res.get(r, col::runs));
    if (expected && static_cast<size_t>(*expected) != s.run_rows[r].size())
      throw UsageError(dir + "/results.csv line " + std::to_string(res.line_of(r)) + ": (" +
                       describe_row(res, r, cols) + ") has runs=" + std::to_string(*expected) +
                       " but runs.csv has " + std::to_string(s.run_rows[r].size()) +
                       " of its runs; the files do not match (an interrupted copy?)");
  }
  // A run's value is a number or empty (not measured): "nan", "inf" or text
  // would drop the run from the test without a word (edpbench writes none).
  for (size_t r = 0; r < res.rows.size(); ++r)
    for (const size_t rr : s.run_rows[r])
      for (const char* stem : {col::time_s, col::energy_j, col::dynamic_energy_j, col::edp_js}) {
        const std::string cell = runs.get(rr, stem);
        if (!cell.empty() && !parse_double(cell))
          throw UsageError(dir + "/runs.csv line " + std::to_string(runs.line_of(rr)) + ": " +
                           stem + " = '" + escaped_excerpt(cell, 40) +
                           "' is not a decimal number (edpbench writes a number, or nothing for "
                           "a value not measured; the file was edited or is corrupt: copy the "
                           "sweep's runs.csv again)");
      }
  for (size_t r = 0; r < res.rows.size(); ++r) {
    if (res.get(r, col::status) != "ok") continue;
    // compare takes a change from results.csv's means and its test from
    // runs.csv's runs: the two must be the same data, or an edited or stale
    // results.csv hides what the runs show. results.csv writes 9 significant
    // digits, so its mean is the runs' mean to within a few parts in 1e9.
    for (const char* stem : {col::time_s, col::energy_j, col::dynamic_energy_j, col::edp_js}) {
      const auto mean = parse_double(res.get(r, std::string(stem) + "_mean"));
      if (!mean || !std::isfinite(*mean)) continue;
      double sum = 0, magnitude = 0;
      size_t n = 0;
      for (const size_t rr : s.run_rows[r])
        if (const auto v = parse_double(runs.get(rr, stem)); v && std::isfinite(*v)) {
          sum += *v;
          magnitude += std::fabs(*v);
          ++n;
        }
      // Runs without a value leave the mean's rule unknown: not checked.
      if (n == 0 || n != s.run_rows[r].size()) continue;
      const double runs_mean = sum / static_cast<double>(n);
      // Relative to the runs' size, not to their mean: dynamic energy can
      // be of either sign, and runs that nearly cancel have a mean near 0
      // that each run's rounding moves by far more than 1e-5 of it.
      if (std::fabs(runs_mean - *mean) >
          kMeanTolerance * magnitude / static_cast<double>(n) + 1e-12)
        throw UsageError(dir + "/results.csv line " + std::to_string(res.line_of(r)) + ": (" +
                         describe_row(res, r, cols) + ") has " + stem + "_mean " +
                         fmt_double(*mean) + " but its " + std::to_string(n) +
                         " runs in runs.csv average " + fmt_double(runs_mean) +
                         "; results.csv was edited or is from another sweep (copy the two "
                         "files of one sweep together)");
    }
  }
  return s;
}

}  // namespace edp::report
