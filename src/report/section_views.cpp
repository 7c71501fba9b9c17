#include "report/section_views.h"
#include "report/columns.h"

#include <algorithm>

#include "report/html_sections.h"
#include "report/recommend.h"
#include "report/report_data.h"

namespace edp::report {

StudyView results_view(const std::string& study) {
  StudyView v;
  v.study = study;
  v.section = [](const ReportData& rows, const std::string& tag) {
    return render_results_section(rows, tag) + render_points_section(rows, tag);
  };
  return v;
}

StudyView batch_view(const std::string& study) {
  StudyView v;
  v.study = study;
  v.section_name = "batch";
  v.identity = {col::workload, col::size, col::n};
  v.section = [](const ReportData& rows, const std::string&) { return render_batch_section(rows); };
  v.recommend_notes = [](const CsvTable& rows, const RecommendOptions& options) {
    return crossovers_text(batch_crossovers(rows, options));
  };
  return v;
}

StudyView stages_view(const std::string& study) {
  StudyView v;
  v.study = study;
  v.section_name = "stages";
  v.section = [](const ReportData& rows, const std::string&) {
    return render_stages_section(rows.dir);
  };
  return v;
}

StudyView ops_view(const std::string& study) {
  StudyView v;
  v.study = study;
  v.section_name = "ops";
  v.section = [](const ReportData& rows, const std::string&) {
    return render_ops_section(rows.dir);
  };
  return v;
}

StudyView deploy_view(const std::string& study) {
  StudyView v;
  v.study = study;
  // Its results.csv rows as any study's, then deploy.csv's section.
  v.section = [](const ReportData& rows, const std::string& tag) {
    return render_results_section(rows, tag) + render_points_section(rows, tag) +
           render_deploy_section(rows.dir);
  };
  return v;
}

std::vector<StudyView> views_on_page(const StudyViews& studies, const CsvTable& results) {
  std::vector<StudyView> out = studies.registered();
  for (size_t r = 0; r < results.rows.size(); ++r) {
    const std::string study = row_study(results, r);
    if (std::none_of(out.begin(), out.end(), [&](const StudyView& v) { return v.study == study; }))
      out.push_back(results_view(study));
  }
  return out;
}

}  // namespace edp::report
