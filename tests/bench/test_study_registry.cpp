// The study registry (src/bench/studies/studies.def) is read by the key table and by the
// runner: both sides must see the same studies, in the same order, under the
// names the studies give themselves, and every study's view (its report
// section and identity, report/study_view.h) must name it.
#include <catch2/catch.hpp>

#include "bench/config/config.h"
#include "bench/studies/config_schema.h"
#include "bench/studies/registry.h"
#include "bench/studies/study.h"
#include "common/errors.h"
#include "report/report_data.h"
#include "report/section_views.h"

using namespace edp::bench;

TEST_CASE("study registry: the config's names are the studies' own, in one order", "[study]") {
  const auto studies = all_studies();
  const std::vector<std::string>& names = known_studies();
  REQUIRE(studies.size() == names.size());
  for (size_t i = 0; i < studies.size(); ++i) {
    CHECK(studies[i]->name() == names[i]);
    CHECK(studies[i]->view().study == names[i]);
    CHECK(make_study(names[i])->name() == names[i]);
  }
  CHECK_THROWS_AS(make_study("no_such_study"), edp::UsageError);
}

TEST_CASE("study registry: the readers' views keep the registry's order", "[study]") {
  const edp::report::StudyViews views = study_views();
  const edp::report::CsvTable none;
  const auto on_page = edp::report::views_on_page(views, none);
  REQUIRE(on_page.size() == known_studies().size());
  for (size_t i = 0; i < on_page.size(); ++i) CHECK(on_page[i].study == known_studies()[i]);
}

TEST_CASE("study registry: the readers know every file a study keeps its rows in", "[study]") {
  // report's own_study_files() tells a sweep whose rows are in a study's own
  // file from one that did not run (its results.csv is empty either way): a
  // study that commits to a file of its own must be in its list.
  std::vector<std::string> files;
  for (const auto& study : all_studies())
    if (study->commit_file() != "results.csv") files.push_back(study->commit_file());
  CHECK(files == edp::report::study_row_files());
}
