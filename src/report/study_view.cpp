#include "report/study_view.h"
#include "report/columns.h"

#include <algorithm>

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

StudyViews::StudyViews(std::vector<StudyView> registered) : views_(std::move(registered)) {}

std::vector<std::string> StudyViews::identity_columns() const {
  std::vector<std::string> out = StudyView().identity;
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
