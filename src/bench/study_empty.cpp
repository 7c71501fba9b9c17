// A throwaway study (issue 34, stage 4): the protocol's own cost per step on
// each device, measured with the empty workload. It exists to show what
// adding a study touches: this file and one line of studies.def.
#include "bench/study.h"
#include "report/html_report.h"
#include "report/html_util.h"
#include "report/results_csv.h"
#include "workloads/empty_workload.h"

namespace edp::bench {
namespace {

// Its section of the report: one row per device, from its results.csv rows.
std::string empty_section(const report::ReportData& rows, const std::string&) {
  const report::CsvTable& t = rows.results;
  if (t.rows.empty()) return "";
  std::string h =
      "<h2 id=\"empty\">Protocol cost per step</h2>\n<table>\n"
      "<tr><th>Device</th><th>Time per step (s)</th></tr>\n";
  for (size_t r = 0; r < t.rows.size(); ++r)
    h += "<tr><td>" + report::html_escape(t.get(r, "device")) + "</td><td>" +
         report::html_escape(t.get(r, "time_per_iteration_s_mean")) + "</td></tr>\n";
  return h + "</table>\n";
}

class EmptyStudy final : public Study {
 public:
  std::string name() const override { return "empty"; }
  std::vector<PlanItem> plan(const Config& cfg) const override {
    std::vector<PlanItem> items;
    for (const auto& dev : cfg.devices) {
      PlanItem item;
      item.study = name();
      item.params = {{"device", dev.label}};
      item.key = item_key(item.study, item.params);
      item.device = &dev;
      item.settings = mlp_settings(cfg, dev);
      item.settings.gemm_auto = false;
      item.label = "empty/" + dev.label;
      item.parts.push_back({"empty", [](Backend& be) { return make_empty_workload(be); }});
      items.push_back(std::move(item));
    }
    return items;
  }
  std::string commit_file() const override { return "results.csv"; }
  FileRows rows(const report::ItemRecord& rec, const report::CsvTable&) const override {
    FileRows out;
    for (const auto& part : rec.parts) out["results.csv"].push_back(report::results_row(rec, part));
    return out;
  }
  report::StudyView view() const override {
    report::StudyView v;
    v.study = name();
    v.section_name = "empty";
    v.section = empty_section;
    return v;
  }
};

}  // namespace

std::unique_ptr<Study> make_empty_study() { return std::make_unique<EmptyStudy>(); }

}  // namespace edp::bench
