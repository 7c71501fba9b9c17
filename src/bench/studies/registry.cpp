// The studies' makers, from the registry (studies.def); its config side is
// config_schema.cpp.
#include "bench/studies/registry.h"

#include <algorithm>

#include "bench/studies/config_schema.h"
#include "bench/studies/study.h"
#include "common/errors.h"
#include "common/text.h"
#include "report/results_csv.h"

namespace edp::bench {

// Each registered study's maker (defined in its own files).
#define EDP_STUDY(name, maker) std::unique_ptr<Study> maker();
#include "bench/studies/studies.def"

namespace {

struct Registered {
  const char* name;
  std::unique_ptr<Study> (*make)();
};

const std::vector<Registered>& registered() {
  static const std::vector<Registered> all{
#define EDP_STUDY(name, maker) {#name, maker},
#include "bench/studies/studies.def"
  };
  return all;
}

}  // namespace

std::vector<std::unique_ptr<Study>> all_studies() {
  std::vector<std::unique_ptr<Study>> out;
  for (const Registered& r : registered()) out.push_back(r.make());
  return out;
}

report::StudyViews study_views() {
  std::vector<report::StudyView> views;
  for (const auto& study : all_studies()) views.push_back(study->view());
  return report::StudyViews(std::move(views));
}

FileRows engine_rows(const report::ItemRecord& rec) {
  FileRows out;
  auto& runs = out["runs.csv"];
  auto& rails = out["rails.csv"];
  for (const auto& part : rec.parts) {
    for (auto& r : report::runs_rows(part)) runs.push_back(std::move(r));
    for (auto& r : report::rails_rows(part)) rails.push_back(std::move(r));
  }
  return out;
}

std::unique_ptr<Study> make_study(const std::string& name) {
  for (const Registered& r : registered())
    if (name == r.name) return r.make();
  throw UsageError("the '" + name + "' study is not available in this build (studies: " +
                   join(known_studies()) + ")");
}

std::vector<PlanItem> at_operating_points(const Config& cfg, std::vector<PlanItem> items) {
  if (cfg.operating_points.empty()) return items;
  std::vector<PlanItem> out;
  for (size_t p = 0; p < cfg.operating_points.size(); ++p)
    for (const PlanItem& base : items) {
      PlanItem item = base;
      item.point = static_cast<int>(p);
      item.point_name = cfg.operating_points[p].name;
      item.params.push_back({"point", item.point_name});
      item.key = item_key(item.study, item.params);
      item.label = item.point_name + ": " + item.label;
      out.push_back(std::move(item));
    }
  return out;
}

SweepPlan plan_studies(const Config& cfg) {
  SweepPlan plan;
  std::vector<PlanItem> items;
  for (const auto& name : cfg.studies) {
    std::unique_ptr<Study> study;
    try {
      study = make_study(name);
    } catch (const UsageError& e) {
      plan.problems.push_back(e.what());
      continue;
    }
    std::vector<PlanItem> mine = study->plan(cfg);
    for (auto& p : study->check(mine)) plan.problems.push_back(std::move(p));
    for (auto& item : mine) items.push_back(std::move(item));
  }
  plan.items = at_operating_points(cfg, std::move(items));
  return plan;
}

std::vector<PlanItem> plan_sweep(const Config& cfg) { return plan_studies(cfg).items; }

}  // namespace edp::bench
