// The sections of the HTML report, one file each (DESIGN §9, "Report"). The
// page shell (html_report.cpp) calls the section of each study, in the
// registry's order (study_view.h). A section reads only the files of the
// results directory, never runner structs, and returns "" when its file (or
// its study's rows) is absent, so `report` works on old and partial
// directories.
#pragma once

#include <string>

#include "report/report_data.h"

namespace edp::report {

// One study's results.csv rows (`rows`: study_view.h): time, energy and EDP
// figures, the recommendation, every configuration, and the speed-up
// between backend modes. `tag` ("" or the study's name) marks the headings
// and figure ids when the page has several such sections.
std::string render_results_section(const ReportData& rows, const std::string& tag);
// The same rows with more than one operating point: time against energy per
// (device, point), per workload and size, the Pareto front drawn ("" with
// fewer than two points).
std::string render_points_section(const ReportData& rows, const std::string& tag);
// The batch study's results.csv rows: per-sample time and energy against N,
// CPU against GPU, the crossover marked.
std::string render_batch_section(const ReportData& rows);
// DIR/stages.csv and DIR/memory.csv (the stages study).
std::string render_stages_section(const std::string& dir);
// DIR/ops.csv (the ops study): roofline, throughput against size, table,
// speed-up between backend modes.
std::string render_ops_section(const std::string& dir);
// DIR/samples.csv (power.timeline): each configuration's median run's power
// over time, as read against lag-corrected, with the window's edges and the
// idle baseline; "" when samples.csv is absent.
std::string render_timeline_section(const ReportData& data);
// DIR/deploy.csv (the deploy study): hours on a charge against the request
// rate per device, the crossovers marked (html_deploy.cpp).
std::string render_deploy_section(const std::string& dir);
// context.json as key/value tables (board, L4T, nvpmodel, clocks, sensors,
// baselines, the resolved config); a note when there is none.
std::string render_context_section(const ReportData& data);

}  // namespace edp::report
