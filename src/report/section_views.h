// The views of report/'s sections (study_view.h's StudyView, filled): which
// section of the page draws a study's rows, its identity columns and what
// `recommend` adds for them. bench's studies name theirs (Study::view()); a
// study nobody describes gets results_view().
#pragma once

#include <string>
#include <vector>

#include "report/csv.h"
#include "report/study_view.h"

namespace edp::report {

// The results section (html_results.cpp): time, energy and EDP per
// workload and size, CPU against GPU, the recommendation, every
// configuration, the speed-ups between backend modes, and the operating
// points when there are several.
StudyView results_view(const std::string& study);
// results.csv rows with N swept (html_batch.cpp); identity adds "n".
StudyView batch_view(const std::string& study);
// DIR/stages.csv and DIR/memory.csv (html_stages.cpp).
StudyView stages_view(const std::string& study);
// DIR/ops.csv (html_ops.cpp).
StudyView ops_view(const std::string& study);
// The deploy study: its results rows, then deploy.csv (html_deploy.cpp).
StudyView deploy_view(const std::string& study);

// What a page over `results` shows, in order: every view `studies`
// registers, then a results view for each study found in `results` that none
// describes, in order of first appearance.
std::vector<StudyView> views_on_page(const StudyViews& studies, const CsvTable& results);

}  // namespace edp::report
