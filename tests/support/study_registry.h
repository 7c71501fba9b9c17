// The readers' views of the studies of this build (bench/studies/registry.cpp), as
// `edpbench report`, `recommend` and `compare` get them: the report's tests
// read their fixtures with the real registry.
#pragma once

#include "bench/studies/registry.h"
#include "bench/studies/study.h"
#include "report/study_view.h"

namespace edp::testing {

inline const report::StudyViews& registry() {
  static const report::StudyViews views = bench::study_views();
  return views;
}

}  // namespace edp::testing
