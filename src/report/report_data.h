// An `edpbench run` directory as the readers read it back (the report, its
// sections, compare): results.csv, and runs.csv and context.json when they
// are there and readable.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "common/run_context.h"
#include "report/csv.h"
#include "report/json_read.h"

namespace edp::report {

// Everything the page is built from, read from an `edpbench run` directory.
struct ReportData {
  std::string title;                      // the directory's name
  std::string dir;                        // where the files are (sections read their own)
  CsvTable results;                       // results.csv (required)
  std::optional<CsvTable> runs;           // runs.csv, when present and readable
  std::string runs_unreadable;            // why a runs.csv that is there was not read
  std::optional<JsonValue> context;       // context.json as written (the report shows it whole)
  std::optional<RunContext> run_context;  // the same, read through its struct
  std::vector<std::string> warnings;      // what was missing or unreadable
};

// Throws edp::UsageError when DIR or DIR/results.csv is missing or invalid;
// a missing or malformed runs.csv/context.json only adds a warning.
ReportData load_report_data(const std::string& dir);

// Names from `required` that `table` lacks, in the order of `required`.
std::vector<std::string> missing_columns(const CsvTable& table,
                                         const std::vector<std::string>& required);
// The values of a results.csv's ok rows that every reader takes: `runs` a
// count of at least 1, the layer shapes, threads and iterations whole
// numbers (or empty), the time, energy, power and EDP statistics numbers
// (or empty) in their columns' ranges (report_data.cpp: a time not below
// zero, a nonzero mean not below 1e-15, nothing beyond 1e15). Throws
// edp::UsageError naming `path`, the line, the column and the value.
void check_result_values(const CsvTable& table, const std::string& path);
// Reads and checks a results.csv. Throws edp::UsageError naming the file when it
// cannot be read, is malformed or lacks required columns (listing them).
CsvTable load_results_csv(const std::string& path);

// The files the studies that keep their rows apart from results.csv commit
// them to (stages.csv, ops.csv, deploy.csv: each such study's commit_file(),
// checked against the registry by tests/bench/test_study_registry.cpp), and
// those of them that sweep directory `dir` holds.
const std::vector<std::string>& study_row_files();
std::vector<std::string> own_study_files(const std::string& dir);
// What a reader says first of a sweep whose rows are all in its studies' own
// files `own`: "FILE has no configuration to WHAT: this sweep's studies keep
// their rows in ..." (each reader then says where to look).
std::string rows_elsewhere_problem(const std::string& results_file, const std::string& what,
                                   const std::vector<std::string>& own);
// What every reader says of a sweep whose results.csv has no configuration
// and that holds no study file of its own: it did not run, or has not
// finished, and how to continue it.
std::string not_run_problem(const std::string& dir);
// What every reader says of a directory with no results.csv.
std::string no_results_problem(const std::string& dir);

}  // namespace edp::report
