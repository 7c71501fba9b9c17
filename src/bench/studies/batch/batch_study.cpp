// The batch study (see study_batch.h). Items run size by size, program by
// program, N ascending, every device at each N, so a sweep stopped half-way
// still holds complete CPU-against-GPU pairs. Rows go into results.csv with
// n set; the per-sample columns are time (energy) / (N x iterations).
#include "bench/studies/batch/batch_study.h"

#include <algorithm>

#include "bench/studies/batch/batch_config.h"
#include "bench/studies/memory_check.h"
#include "bench/studies/mlp/mlp_study.h"

namespace edp::bench {
namespace {

class BatchStudy final : public Study {
 public:
  std::string name() const override { return "batch"; }
  std::vector<PlanItem> plan(const Config& cfg) const override {
    std::vector<PlanItem> items;
    for (const auto& size_name : cfg.section<BatchConfig>().sizes) {
      const SizeSpec* base = nullptr;
      for (const auto& s : cfg.sizes)
        if (s.name == size_name) base = &s;
      if (!base) continue;  // the config loader refuses unknown names
      for (const auto& w : cfg.workloads)
        for (int64_t n : cfg.section<BatchConfig>().n)
          for (const auto& dev : cfg.devices) {
            SizeSpec size = *base;
            size.n = n;
            PlanItem item = mlp_item(cfg, "batch", w, size, dev,
                                     {{"workload", w},
                                      {"size", size_name},
                                      {"n", std::to_string(n)},
                                      {"device", dev.label}});
            item.label = w + "/" + size_name + "/n=" + std::to_string(n) + "/" + dev.label;
            items.push_back(std::move(item));
          }
    }
    return items;
  }
  std::string commit_file() const override { return "results.csv"; }
  FileRows rows(const report::ItemRecord& rec, const report::CsvTable&) const override {
    return mlp_rows(rec);
  }
  report::StudyView view() const override { return report::batch_view(name()); }
  // Each size at the largest N.
  std::vector<MemoryNeed> memory_needs(const Config& cfg) const override {
    const BatchConfig& batch = cfg.section<BatchConfig>();
    std::vector<SizeSpec> shapes;
    if (batch.n.empty()) return {};
    for (const auto& size_name : batch.sizes)
      for (const auto& s : cfg.sizes)
        if (s.name == size_name) {
          SizeSpec big = s;
          big.n = *std::max_element(batch.n.begin(), batch.n.end());
          shapes.push_back(big);
          break;
        }
    return mlp_memory_needs(cfg, name(), shapes);
  }
};

}  // namespace

std::unique_ptr<Study> make_batch_study() { return std::make_unique<BatchStudy>(); }

}  // namespace edp::bench
