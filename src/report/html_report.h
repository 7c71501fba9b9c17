// `edpbench report`: one self-contained HTML page (inline CSS and SVG, no
// scripts, no network) with the time, energy and EDP figures per workload and
// size, the recommendation (objective EDP), every configuration's numbers, the
// failed and skipped configurations, and the run context from context.json.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "report/report_data.h"
#include "report/study_view.h"

namespace edp::report {

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
