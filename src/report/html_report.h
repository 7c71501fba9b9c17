// `edpbench report`: one self-contained HTML page (inline CSS and SVG, no
// scripts, no network) with the time, energy and EDP figures per workload and
// size, the recommendation (objective EDP), every configuration's numbers, the
// failed and skipped configurations, and the run context from context.json.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "common/run_context.h"
#include "report/csv.h"
#include "report/json_read.h"
#include "report/study_view.h"

namespace edp::report {

// Everything the page is built from, read from an `edpbench run` directory.
struct ReportData {
  std::string title;                      // the directory's name
  std::string dir;                        // where the files are (sections read their own)
  CsvTable results;                       // results.csv (required)
  std::optional<CsvTable> runs;           // runs.csv, when present and readable
  std::optional<JsonValue> context;       // context.json as written (the report shows it whole)
  std::optional<RunContext> run_context;  // the same, read through its struct
  std::vector<std::string> warnings;      // what was missing or unreadable
};

// Throws edp::UsageError when DIR or DIR/results.csv is missing or invalid;
// a missing or malformed runs.csv/context.json only adds a warning.
ReportData load_report_data(const std::string& dir);

// "&", "<", ">", '"' and "'" as entities.
std::string html_escape(const std::string& text);

// The page: header, notices, each study's section (the views of `studies`,
// then a results section for each study results.csv holds that none
// describes), failures, context.
std::string render_html_report(const ReportData& data, const StudyViews& studies);

struct ReportSummary {
  size_t configurations = 0;
  std::vector<std::string> warnings;
};
// load_report_data + render_html_report + write_file_atomic(out_path).
ReportSummary write_html_report(const std::string& dir, const std::string& out_path,
                                const StudyViews& studies);

}  // namespace edp::report
