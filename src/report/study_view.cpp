#include "report/study_view.h"
#include "report/columns.h"

#include <algorithm>

#include "report/html_report.h"
#include "report/html_sections.h"
#include "report/recommend.h"

namespace edp::report {

std::string row_study(const CsvTable& t, size_t r) {
  const std::string s = t.get(r, col::study);
  return s.empty() ? "mlp" : s;  // results.csv had no `study` column before the batch study
}

CsvTable rows_of_study(const CsvTable& t, const std::string& study) {
  CsvTable out;
  out.header = t.header;
  for (size_t r = 0; r < t.rows.size(); ++r)
    if (row_study(t, r) == study) out.rows.push_back(t.rows[r]);
  return out;
}

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

StudyViews::StudyViews(std::vector<StudyView> registered) : views_(std::move(registered)) {}

StudyView StudyViews::of(const std::string& study) const {
  for (const auto& v : views_)
    if (v.study == study) return v;
  return results_view(study);
}

std::vector<StudyView> StudyViews::on_page(const CsvTable& results) const {
  std::vector<StudyView> out = views_;
  for (size_t r = 0; r < results.rows.size(); ++r) {
    const std::string study = row_study(results, r);
    if (std::none_of(out.begin(), out.end(), [&](const StudyView& v) { return v.study == study; }))
      out.push_back(results_view(study));
  }
  return out;
}

std::vector<std::string> StudyViews::identity_columns() const {
  std::vector<std::string> out = results_view("").identity;
  for (const auto& v : views_)
    for (const auto& c : v.identity)
      if (std::find(out.begin(), out.end(), c) == out.end()) out.push_back(c);
  return out;
}

std::vector<std::string> StudyViews::extra_identity(const CsvTable& t, size_t r) const {
  const std::string study = row_study(t, r);
  for (const auto& v : views_)
    if (v.study == study) {
      std::vector<std::string> out;
      for (const auto& c : v.identity)
        if (c != col::workload && c != col::size) out.push_back(c);
      return out;
    }
  return {};
}

}  // namespace edp::report
