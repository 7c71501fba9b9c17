// What the readers of a results directory (the report, recommend, compare,
// the cross-board page) know of a study: which section of the page draws its
// rows and which columns name one of its configurations (DESIGN §9: a study
// owns its report section and its identity). No reader tests a study's name:
// a study brings its view through the registry (bench's Study::view(),
// collected by bench::study_views(); `edpbench` hands them to the readers),
// and the rows of a study nobody describes (the monitor API's, a newer
// edpbench's) get results_view(): plain results.csv rows, drawn, tabled and
// recommended as such. The views themselves, which draw a study with a
// section of the page, are in report/section_views.h.
//
// The views live here, in report/, because the sections read only the files
// (never runner structs) and report must not depend on bench (DESIGN §1);
// bench only names which view each of its studies uses.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "report/csv.h"

namespace edp::report {

struct ReportData;
struct RecommendOptions;

// The study of a results.csv or runs.csv row: its `study` column, or, in a
// file written before there was one, the only study there was then (mlp).
std::string row_study(const CsvTable& t, size_t r);
// The rows of `t` whose row_study() is `study`, with the same header.
CsvTable rows_of_study(const CsvTable& t, const std::string& study);

struct StudyView {
  std::string study;  // the `study` column's value
  // Which section draws it: "results" (results_view), or the study's own.
  std::string section_name = "results";
  // The results.csv columns that name one of its configurations besides the
  // device and the operating point (what recommend chooses between):
  // workload and size first, then the study's own ("n" for batch).
  std::vector<std::string> identity{"workload", "size"};
  // Its part of the page. `rows` is the directory with only this study's
  // rows of results.csv and runs.csv (its own files are under rows.dir).
  // `tag` is "" when it is the only results section on the page, else the
  // study's name, which then marks its headings and figure ids. "" when it
  // has nothing to show.
  std::function<std::string(const ReportData& rows, const std::string& tag)> section;
  // What `recommend` prints after its table for this study's rows ("" for
  // nothing): the batch study's crossover N.
  std::function<std::string(const CsvTable& rows, const RecommendOptions&)> recommend_notes;
};

class StudyViews {
 public:
  StudyViews() = default;
  explicit StudyViews(std::vector<StudyView> registered);

  // The views registered, in registry order (what a page shows first:
  // views_on_page, report/section_views.h).
  const std::vector<StudyView>& registered() const { return views_; }
  // Every identity column of the registered views (and a plain StudyView's:
  // workload and size), in registry order, once each.
  std::vector<std::string> identity_columns() const;
  // identity of the row's study, minus workload and size: the columns that
  // tell its configurations of one (workload, size) apart.
  std::vector<std::string> extra_identity(const CsvTable& t, size_t r) const;

 private:
  std::vector<StudyView> views_;
};

}  // namespace edp::report
