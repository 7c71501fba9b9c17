// The deploy study (see deploy_study.h).
#include "bench/studies/deploy/deploy_study.h"

#include <algorithm>

#include "bench/protocol/gemm_choice.h"
#include "bench/studies/deploy/deploy_config.h"
#include "bench/studies/deploy/deploy_measure.h"
#include "bench/studies/memory_check.h"
#include "bench/studies/mlp/mlp_study.h"
#include "report/deploy_csv.h"
#include "report/results_csv.h"
#include "workloads/mlp_stages.h"
#include "workloads/mlp_step.h"

namespace edp::bench {
namespace {

// One item: `program`'s training step at the size's N, or its forward pass
// (inference) at N = batch, on the size's layer shapes.
PlanItem deploy_item(const Config& cfg, const std::string& mode, const std::string& program,
                     const SizeSpec& size, int batch, const DeviceSpec& dev) {
  const bool infer = mode == "infer";
  SizeSpec shape_size = size;
  if (infer) shape_size.n = batch;
  PlanItem item;
  item.study = "deploy";
  item.params = {{"mode", mode}, {"workload", program}, {"size", size.name}};
  if (infer) item.params.push_back({"batch", std::to_string(batch)});
  item.params.push_back({"device", dev.label});
  item.key = item_key(item.study, item.params);
  item.device = &dev;
  item.size = size.name;
  item.settings = mlp_settings(cfg, dev);
  item.values = mlp_shape_values(shape_size);
  item.label = "deploy/" + (infer ? "infer/b" + std::to_string(batch) : "train/" + program) + "/" +
               size.name + "/" + dev.label;
  const MlpShape shape{shape_size.n, shape_size.d_in, shape_size.h, shape_size.d_out};
  item.settings.gemm_shape = gemm_shape_key(shape);
  const uint64_t seed = cfg.seed;
  const double scale = cfg.init_scale;
  const float lr = static_cast<float>(cfg.learning_rate);
  item.parts.push_back({infer ? "forward" : program, [=](Backend& be) {
                          const MlpData data = make_initial_data(shape, seed, scale);
                          return infer ? make_mlp_stage_workload(program, "forward", be, data, lr)
                                       : make_mlp_step(program, be, data, lr);
                        }});
  const double flop = infer ? mlp_flop_upto(shape, MlpStage::forward) : mlp_step_flop(shape);
  item.flop_estimate = flop * cfg.iterations * cfg.runs;
  return item;
}

class DeployStudy final : public Study {
 public:
  std::string name() const override { return "deploy"; }
  report::StudyView view() const override { return report::deploy_view(name()); }

  std::vector<PlanItem> plan(const Config& cfg) const override {
    std::vector<PlanItem> items;
    for (const auto& size_name : cfg.section<DeployConfig>().sizes) {
      const auto size = std::find_if(cfg.sizes.begin(), cfg.sizes.end(),
                                     [&](const SizeSpec& s) { return s.name == size_name; });
      if (size == cfg.sizes.end()) continue;  // the config loader refuses unknown names
      for (const auto& mode : cfg.section<DeployConfig>().modes)
        for (const auto& dev : cfg.devices) {
          if (mode == "train")
            for (const auto& program : cfg.workloads)
              items.push_back(deploy_item(cfg, mode, program, *size, 1, dev));
          else  // the forward pass is one computation: the first program's
            for (const int64_t batch : cfg.section<DeployConfig>().batches)
              items.push_back(deploy_item(cfg, mode, cfg.workloads.front(), *size,
                                          static_cast<int>(batch), dev));
        }
    }
    return items;
  }

  std::string commit_file() const override { return "deploy.csv"; }
  std::vector<OutputFile> own_files() const override {
    return {{"deploy.csv", report::deploy_columns(), true, report::required_deploy_columns()}};
  }

  std::vector<MemoryNeed> memory_needs(const Config& cfg) const override {
    std::vector<SizeSpec> shapes;
    for (const auto& size_name : cfg.section<DeployConfig>().sizes)
      for (const auto& s : cfg.sizes)
        if (s.name == size_name) shapes.push_back(s);
    return mlp_memory_needs(cfg, name(), shapes);
  }

  FileRows rows(const report::ItemRecord& rec, const report::CsvTable&) const override {
    FileRows out;
    out["deploy.csv"] = report::deploy_rows(rec);
    for (const auto& part : rec.parts) {
      for (auto& r : report::runs_rows(part)) out["runs.csv"].push_back(std::move(r));
      for (auto& r : report::rails_rows(part)) out["rails.csv"].push_back(std::move(r));
    }
    return out;
  }

  void before_backend(const PlanItem& item, const PassContext& ctx,
                      report::ItemRecord& rec) const override {
    if (ctx.cfg.section<DeployConfig>().release)
      DeployPass(ctx.session, ctx.cfg, item, rec).cold_starts();
  }

  void after_parts(Backend& be, const PlanItem& item, const PassContext& ctx,
                   report::ItemRecord& rec) const override {
    if (rec.status != "ok") return;
    DeployPass(ctx.session, ctx.cfg, item, rec).warm(be);
  }
};

}  // namespace

std::unique_ptr<Study> make_deploy_study() { return std::make_unique<DeployStudy>(); }

}  // namespace edp::bench
