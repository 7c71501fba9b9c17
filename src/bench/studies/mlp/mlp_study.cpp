// The mlp study (seed 002, DESIGN §2.1): every program x size x device, one
// part (the full training step), rows in results.csv (runs.csv and rails.csv
// are the engine's).
#include "bench/studies/mlp/mlp_study.h"

#include "bench/protocol/gemm_choice.h"
#include "bench/studies/memory_check.h"
#include "report/results_csv.h"
#include "workloads/mlp_step.h"

namespace edp::bench {

ProtocolSettings mlp_settings(const Config& cfg, const DeviceSpec& dev) {
  ProtocolSettings p;
  p.warmup_steps = cfg.warmup_iterations;
  p.steps = cfg.iterations;
  p.runs = cfg.runs;
  p.min_run_s = cfg.power.min_run_s;
  p.min_run_auto = cfg.power.min_run_auto;
  p.gemm_auto = dev.kind == "cpu" && dev.gemm == "auto";
  return p;
}

std::map<std::string, double> mlp_shape_values(const SizeSpec& size) {
  return {{"n", static_cast<double>(size.n)},
          {"d_in", static_cast<double>(size.d_in)},
          {"h", static_cast<double>(size.h)},
          {"d_out", static_cast<double>(size.d_out)},
          {"gflop_per_iteration", size.gemm_flop_per_iteration() / 1e9}};
}

MlpShape mlp_shape_of(const PlanItem& item) {
  auto v = [&](const char* k) { return static_cast<int64_t>(item.values.at(k)); };
  return MlpShape{v("n"), v("d_in"), v("h"), v("d_out")};
}

PlanItem mlp_item(const Config& cfg, const std::string& study, const std::string& program,
                  const SizeSpec& size, const DeviceSpec& dev, Params params) {
  PlanItem item;
  item.study = study;
  item.params = std::move(params);
  item.key = item_key(study, item.params);
  item.device = &dev;
  item.size = size.name;
  item.settings = mlp_settings(cfg, dev);
  item.label = program + "/" + size.name + "/" + dev.label;
  const MlpShape shape{size.n, size.d_in, size.h, size.d_out};
  item.settings.gemm_shape = gemm_shape_key(shape);
  const uint64_t seed = cfg.seed;
  const double scale = cfg.init_scale;
  const float lr = static_cast<float>(cfg.learning_rate);
  item.parts.push_back({program, [=](Backend& be) {
                          return make_mlp_step(program, be, make_initial_data(shape, seed, scale),
                                               lr);
                        }});
  item.flop_estimate = mlp_step_flop(shape) * cfg.iterations * cfg.runs;
  // results.csv's shape columns and GFLOP/s (report::results_row).
  item.values = mlp_shape_values(size);
  return item;
}

FileRows mlp_rows(const report::ItemRecord& rec) {
  FileRows out;
  for (const auto& part : rec.parts) out["results.csv"].push_back(report::results_row(rec, part));
  return out;
}

namespace {

class MlpStudy final : public Study {
 public:
  std::string name() const override { return "mlp"; }
  std::vector<PlanItem> plan(const Config& cfg) const override {
    std::vector<PlanItem> items;
    for (const auto& w : cfg.workloads)
      for (const auto& size : cfg.sizes)
        for (const auto& dev : cfg.devices)
          items.push_back(mlp_item(cfg, "mlp", w, size, dev,
                                   {{"workload", w}, {"size", size.name}, {"device", dev.label}}));
    return items;
  }
  std::string commit_file() const override { return "results.csv"; }
  FileRows rows(const report::ItemRecord& rec, const report::CsvTable&) const override {
    return mlp_rows(rec);
  }
  std::vector<MemoryNeed> memory_needs(const Config& cfg) const override {
    return mlp_memory_needs(cfg, name(), cfg.sizes);
  }
};

}  // namespace

std::unique_ptr<Study> make_mlp_study() { return std::make_unique<MlpStudy>(); }

}  // namespace edp::bench
