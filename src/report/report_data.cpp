#include "report/report_data.h"

#include <limits.h>
#include <stdlib.h>

#include <cerrno>
#include <cstring>
#include <exception>
#include <map>
#include <stdexcept>

#include "common/errors.h"
#include "common/safe_file.h"
#include "common/text.h"
#include "report/columns.h"
#include "report/results_csv.h"

namespace edp::report {

std::vector<std::string> missing_columns(const CsvTable& table,
                                         const std::vector<std::string>& required) {
  std::vector<std::string> missing;
  for (const auto& c : required)
    if (table.column(c) < 0) missing.push_back(c);
  return missing;
}

void check_result_values(const CsvTable& t, const std::string& path) {
  // Counts: empty (a monitor row has no layer shapes) or a whole number.
  static const char* const kCounts[] = {col::n,     col::d_in,    col::h,
                                        col::d_out, col::threads, col::iterations};
  // Means and spreads that every reader takes: empty (not measured) or a
  // number in its column's range. A time is not below zero; an energy,
  // power or EDP may be (a lag-corrected window much shorter than an
  // averaging rail's period can come out below zero; dynamic energy when the
  // idle baseline read above the run). A nonzero mean is at least 1e-15 s,
  // J or W (1e-30 J s): no instrument resolves less, and 1e-300 J s won
  // recommend's EDP. Nothing reaches 1e15 (1e30 J s).
  static const NumberRange time{false, 1e-15, 1e15}, energy{true, 1e-15, 1e15},
      spread{false, 0, 1e15}, difference{true, 0, 1e15}, edp{true, 1e-30, 1e30},
      edp_spread{false, 0, 1e30};
  static const std::vector<std::pair<const char*, const NumberRange*>> kValues{
      {col::time_s_mean, &time},
      {col::time_per_sample_s_mean, &time},
      {col::time_s_std, &spread},
      {col::time_s_ci95, &spread},
      {col::energy_j_mean, &energy},
      {col::power_w_mean, &energy},
      {col::energy_per_sample_j_mean, &energy},
      {col::energy_j_std, &spread},
      {col::energy_j_ci95, &spread},
      {col::dynamic_energy_j_mean, &difference},
      {col::edp_js_mean, &edp},
      {col::edp_js_std, &edp_spread}};
  const auto refuse = [&](size_t r, const std::string& c, const std::string& cell,
                          const std::string& why) {
    throw UsageError(path + " line " + std::to_string(t.line_of(r)) + ": " + c + " = '" +
                     escaped_excerpt(cell, 40) + "' is " + why +
                     " (edpbench writes no such value in an ok row: the file was edited or is "
                     "corrupt; restore it, or run the configuration again)");
  };
  for (size_t r = 0; r < t.rows.size(); ++r) {
    // Every row has one of the three statuses: another ('OK') skipped every
    // check below and the row vanished from recommend, exit 0 (review).
    const std::string status = t.get(r, col::status);
    if (status != "ok" && status != "failed" && status != "skipped")
      throw UsageError(path + " line " + std::to_string(t.line_of(r)) + ": status = '" +
                       escaped_excerpt(status, 40) +
                       "' is not ok, failed or skipped (edpbench writes no other: the file was "
                       "edited or is corrupt; restore it, or run the configuration again)");
    if (status != "ok") continue;
    const std::string runs = t.get(r, col::runs);
    if (const auto n = parse_count(runs); !n || *n < 1)
      refuse(r, col::runs, runs, "not a count of runs (a whole number, at least 1)");
    for (const char* c : kCounts) {
      const std::string cell = t.get(r, c);
      if (!cell.empty() && !parse_count(cell)) refuse(r, c, cell, "not a whole number");
    }
    for (const auto& [c, range] : kValues) {
      const std::string cell = t.get(r, c);
      const std::string why = number_problem(cell, *range);
      if (!why.empty()) refuse(r, c, cell, why);
    }
  }
}

CsvTable load_results_csv(const std::string& path) {
  // Through the one reader of untrusted files: a link, /dev/zero, a FIFO (it
  // would never end) or a file beyond the results cap is refused.
  const auto text = read_untrusted_file_if_present(path, file_kind::results_csv);
  if (!text) throw UsageError("cannot open results file " + path + ": " + std::strerror(ENOENT));
  if (text->empty()) throw UsageError(path + " is empty (no header, no rows)");
  CsvTable t;
  try {
    t = parse_csv(*text, path);
  } catch (const std::runtime_error& e) {
    throw UsageError(std::string("malformed results file: ") + e.what());
  }
  const auto missing = missing_columns(t, required_result_columns());
  if (!missing.empty()) {
    std::string list;
    for (const auto& m : missing) list += (list.empty() ? "" : ", ") + m;
    throw UsageError(path + " is not an edpbench results.csv: missing required column" +
                     (missing.size() > 1 ? "s " : " ") + list);
  }
  check_result_values(t, path);
  // One row per configuration: a repeated key would let a reader take
  // either row (recommend took the one with the lower EDP). A file without
  // the key column (an older edpbench's) is judged by the identity columns
  // it has instead.
  const int key = t.column(col::key);
  std::vector<int> identity;
  if (key < 0)
    for (const char* c : {col::workload, col::size, col::device, col::threads, col::operating_point,
                          col::study, col::n})
      if (t.column(c) >= 0) identity.push_back(t.column(c));
  std::map<std::string, size_t> first;
  for (size_t r = 0; r < t.rows.size(); ++r) {
    std::string k;
    if (key >= 0) {
      k = t.rows[r][static_cast<size_t>(key)];
      if (k.empty()) continue;
    } else {
      for (size_t i = 0; i < identity.size(); ++i)
        k += (i ? " " : "") + t.header[static_cast<size_t>(identity[i])] + "=" +
             t.rows[r][static_cast<size_t>(identity[i])];
    }
    if (const auto [at, fresh] = first.emplace(k, r); !fresh)
      throw UsageError(path + " lines " + std::to_string(t.line_of(at->second)) + " and " +
                       std::to_string(t.line_of(r)) + ": two rows for " + escaped_excerpt(k, 200) +
                       "; a results.csv has one row per configuration (an edited or "
                       "concatenated file: keep the row of the run you trust)");
  }
  return t;
}

const std::vector<std::string>& study_row_files() {
  static const std::vector<std::string> files{"stages.csv", "ops.csv", "deploy.csv"};
  return files;
}

std::vector<std::string> own_study_files(const std::string& dir) {
  std::vector<std::string> own;
  for (const auto& f : study_row_files())
    if (path_present(dir + "/" + f)) own.push_back(f);
  return own;
}

std::string rows_elsewhere_problem(const std::string& results_file, const std::string& what,
                                   const std::vector<std::string>& own) {
  return results_file + " has no configuration to " + what +
         ": this sweep's studies keep their rows in " + edp::join(own, ", ");
}

std::string not_run_problem(const std::string& dir) {
  return dir +
         "/results.csv has no configuration: did the sweep run? (`edpbench run --resume "
         "--out " +
         dir + "` continues it)";
}

std::string no_results_problem(const std::string& dir) {
  return "no results.csv in " + dir + "; pass the --out directory of `edpbench run`";
}

ReportData load_report_data(const std::string& dir) {
  if (!is_directory(dir)) throw UsageError("results directory " + dir + " does not exist");
  ReportData d;
  d.dir = dir;
  char resolved[PATH_MAX];
  d.title = path_base_name(::realpath(dir.c_str(), resolved) ? std::string(resolved) : dir);
  const std::string results = dir + "/results.csv";
  if (!path_present(results)) throw UsageError(no_results_problem(dir));
  d.results = load_results_csv(results);

  // Presence by lstat: a link (even dangling), a FIFO or a device goes to the
  // reader, which refuses it (exit 2) instead of following or skipping it.
  const std::string runs = dir + "/runs.csv";
  if (path_present(runs)) {
    try {
      d.runs = read_csv_file(runs);
    } catch (const UsageError&) {
      throw;
    } catch (const std::exception& e) {
      d.runs_unreadable = e.what();
      d.warnings.push_back(std::string("runs.csv is unreadable, per-run ranges are left out: ") +
                           e.what());
    }
  } else {
    d.warnings.push_back("no runs.csv in " + dir + ": per-run ranges are left out");
  }

  const std::string context = dir + "/context.json";
  if (path_present(context)) {
    try {
      d.context = read_json_file(context);
      d.run_context = run_context_from_json(d.context->to_text());
    } catch (const UsageError&) {
      throw;
    } catch (const std::exception& e) {
      d.warnings.push_back(std::string("context.json is unreadable, the context is left out: ") +
                           e.what());
    }
  } else {
    d.warnings.push_back("no context.json in " + dir + ": the run context is left out");
  }
  return d;
}

}  // namespace edp::report
