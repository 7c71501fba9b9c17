// The registry of studies (studies.def, DESIGN §9): every study of this
// build by name, their views for the readers, the plan of the studies a
// config selects, and the rows the engine writes for any study's item. Its
// definitions are registry.cpp; the Study interface is study.h.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "bench/config/config.h"
#include "bench/protocol/plan_item.h"
#include "bench/studies/study.h"
#include "report/records.h"
#include "report/study_view.h"

namespace edp::bench {

// The rows every measured item has whatever its study, written by the
// engine: runs.csv (one per run of each part) and rails.csv (one per rail of
// each run).
FileRows engine_rows(const report::ItemRecord& rec);

// Studies by name, in the order of DESIGN §9; throws UsageError for an
// unknown name.
std::unique_ptr<Study> make_study(const std::string& name);
// Every study of this build, in that order.
std::vector<std::unique_ptr<Study>> all_studies();
// Their views, in that order: what `report`, `recommend` and `compare` are
// given to read a results directory with.
report::StudyViews study_views();

// The items of every study the config selects, in the config's order, at
// every operating point (points outermost across studies, so a point is
// applied once), and every problem found on the way: studies this build
// lacks and each study's check(). `run` and `plan` both plan with it, so
// they list the same items in the same order.
struct SweepPlan {
  std::vector<PlanItem> items;
  std::vector<std::string> problems;
};
SweepPlan plan_studies(const Config& cfg);
// plan_studies(cfg).items
std::vector<PlanItem> plan_sweep(const Config& cfg);
// `items` repeated at every point of the config, with the point in the key.
std::vector<PlanItem> at_operating_points(const Config& cfg, std::vector<PlanItem> items);

}  // namespace edp::bench
