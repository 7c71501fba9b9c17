// The ops study (see study_ops.h).
//
// Items, per device: fma_peak first and copy next (they are the measured
// ceilings every later row is compared with), then each element-wise op at
// each working-set size, warm and, with ops.cold, cold; then GEMM at each
// ops.gemm_n (square) and at the five shapes of the first configured MLP
// size, transposes included, each on the GEMM path `gemm: auto` measures for
// its shape. A cold item has two parts, the op behind a cache flush and the
// flush alone, and its row is their difference.
#include "bench/studies/ops/ops_study.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <sstream>

#include "bench/protocol/gemm_choice.h"
#include "bench/studies/memory_check.h"
#include "bench/studies/ops/ops_config.h"
#include "report/columns.h"
#include "report/ops_csv.h"
#include "report/results_csv.h"
#include "workloads/op_workloads.h"

namespace edp::bench {
namespace {

bool elementwise(const std::string& op) { return op != "gemm" && op != "fma_peak"; }

std::string shape_text(const OpSpec& s) {
  return std::to_string(s.m) + "x" + std::to_string(s.n) + "x" + std::to_string(s.k) +
         (s.trans_a ? " tA" : "") + (s.trans_b ? " tB" : "");
}

ProtocolSettings ops_settings(const Config& cfg) {
  const OpsConfig& ops = cfg.section<OpsConfig>();
  ProtocolSettings p;
  p.warmup_steps = 2;
  p.steps = ops.steps;
  p.runs = ops.runs;
  p.max_runs = ops.max_runs;
  p.max_rel_ci = ops.max_rel_ci;
  p.time_limit_s = ops.time_limit_s;
  p.min_run_s = std::max(ops.min_run_s, cfg.power.min_run_s);
  p.min_run_auto = cfg.power.min_run_auto;
  return p;
}

double spec_flop(const OpSpec& s) {
  if (s.op == "gemm") return 2.0 * s.m * s.n * s.k;
  if (s.op == "fma_peak") return 0;
  const ElementCounts c = element_counts(s.op);
  return c.flop_per_element * static_cast<double>(s.bytes) / c.bytes_per_element;
}

PlanItem op_item(const Config& cfg, const DeviceSpec& dev, const OpSpec& spec,
                 const std::string& size_label, const std::string& variant) {
  PlanItem item;
  item.study = "ops";
  item.params = {{"op", spec.op}};
  if (spec.op == "gemm") {
    item.params.push_back({"shape", shape_text(spec)});
    if (spec.m == spec.n && spec.n == spec.k) item.params.push_back({"n", std::to_string(spec.n)});
  } else if (spec.op != "fma_peak") {
    item.params.push_back({"bytes", size_label});
  }
  item.params.push_back({"variant", variant});
  item.params.push_back({"device", dev.label});
  item.key = item_key("ops", item.params);
  item.device = &dev;
  item.settings = ops_settings(cfg);
  // A GEMM runs on the path `gemm: auto` measures for its shape, threads and
  // CPUs, as the MLP workloads' GEMMs do (gemm_choice.h).
  if (spec.op == "gemm" && dev.kind == "cpu" && dev.gemm == "auto") {
    item.settings.gemm_auto = true;
    item.settings.gemm_shape = gemm_shape_key(spec);
  }
  item.size = size_label;
  item.label = "ops/" + spec.op + (size_label.empty() ? "" : "/" + size_label) +
               (variant == "cold" ? "/cold" : "") + "/" + dev.label;
  item.parts.push_back({spec.op, [spec](Backend& be) { return make_op_workload(spec, be); }});
  if (variant == "cold") {
    OpSpec flush{"flush"};
    flush.bytes = 0;  // twice the last-level cache
    item.parts.push_back({"flush", [flush](Backend& be) { return make_op_workload(flush, be); }});
  }
  item.flop_estimate =
      spec_flop(spec) * cfg.section<OpsConfig>().steps * cfg.section<OpsConfig>().runs;
  return item;
}

class OpsStudy final : public Study {
 public:
  std::string name() const override { return "ops"; }

  std::vector<PlanItem> plan(const Config& cfg) const override {
    std::vector<PlanItem> items;
    const auto& ops = cfg.section<OpsConfig>().ops;
    auto wanted = [&](const std::string& op) {
      return std::find(ops.begin(), ops.end(), op) != ops.end();
    };
    for (const auto& dev : cfg.devices) {
      if (wanted("fma_peak")) items.push_back(op_item(cfg, dev, OpSpec{"fma_peak"}, "", "warm"));
      std::vector<std::string> order{"copy"};
      for (const auto& op : ops)
        if (op != "copy" && elementwise(op)) order.push_back(op);
      for (const auto& op : order) {
        if (!wanted(op)) continue;
        for (const auto& label : cfg.section<OpsConfig>().bytes) {
          OpSpec spec{op};
          spec.bytes = parse_bytes(label);
          items.push_back(op_item(cfg, dev, spec, label, "warm"));
          if (cfg.section<OpsConfig>().cold) {
            spec.cold = true;
            items.push_back(op_item(cfg, dev, spec, label, "cold"));
          }
        }
      }
      if (!wanted("gemm")) continue;
      for (int64_t n : cfg.section<OpsConfig>().gemm_n) {
        OpSpec spec{"gemm"};
        spec.m = spec.n = spec.k = n;
        items.push_back(op_item(cfg, dev, spec, "n=" + std::to_string(n), "warm"));
      }
      if (!cfg.sizes.empty()) {
        const SizeSpec& s = cfg.sizes.front();
        for (const OpSpec& spec : mlp_gemm_specs({s.n, s.d_in, s.h, s.d_out}))
          items.push_back(op_item(cfg, dev, spec, s.name + ":" + shape_text(spec), "warm"));
      }
    }
    return items;
  }

  // The square GEMMs (A, B and C); the element-wise working sets are
  // checked against the memory left by check().
  std::vector<MemoryNeed> memory_needs(const Config& cfg) const override {
    std::vector<MemoryNeed> out;
    const auto& ops = cfg.section<OpsConfig>().ops;
    if (std::find(ops.begin(), ops.end(), "gemm") == ops.end()) return out;
    for (int64_t n : cfg.section<OpsConfig>().gemm_n) {
      OpSpec spec{"gemm"};
      spec.m = spec.n = spec.k = n;
      out.push_back({"ops.gemm_n", "ops gemm n=" + std::to_string(n),
                     static_cast<int64_t>(gemm_bytes(spec)), "use a smaller order",
                     static_cast<int64_t>(gemm_bytes(spec) / 3)});  // A, B and C alike
    }
    return out;
  }

  std::vector<std::string> check(const std::vector<PlanItem>& items) const override {
    // A working set the host cannot hold is a usage error, found before the
    // sweep (GPU items allocate device memory and fail as items if it lacks).
    std::vector<std::string> problems;
    const int64_t available = available_memory_bytes();
    if (available <= 0) return problems;
    std::map<std::string, bool> said;
    for (const auto& item : items) {
      std::string bytes;
      for (const auto& [k, v] : item.params)
        if (k == "bytes") bytes = v;
      if (bytes.empty() || item.device->kind == "gpu" || said[bytes]) continue;
      const int64_t need = parse_bytes(bytes) * (item.parts.size() > 1 ? 2 : 1);
      if (need > available * 8 / 10) {
        said[bytes] = true;
        problems.push_back("ops.bytes: " + bytes + " needs " + std::to_string(need >> 20) +
                           " MB with its cache flush, but this machine has " +
                           std::to_string(available >> 20) +
                           " MB available (MemAvailable in /proc/meminfo, or less in this "
                           "process's cgroup); remove the size or free memory");
      }
    }
    return problems;
  }

  std::string commit_file() const override { return "ops.csv"; }
  std::vector<OutputFile> own_files() const override {
    return {{"ops.csv", report::ops_columns(), true, report::ops_required_columns()}};
  }

  FileRows rows(const report::ItemRecord& rec, const report::CsvTable& committed) const override {
    FileRows out;
    std::string op, variant;
    for (const auto& [k, v] : rec.params) {
      if (k == "op") op = v;
      if (k == "variant") variant = v;
    }
    // The device's measured ceilings: fma_peak and the fastest warm copy,
    // read back from the rows already committed (items run in plan order,
    // fma_peak and copy first, so they are there for every later row, after
    // --resume too), or this item's own when it is one of them.
    Ceilings c = committed_ceilings(committed, rec.device);
    const report::OpFigures f = report::op_figures(rec);
    if (rec.status == "ok" && op == "fma_peak") c.gflops = f.gflops;
    if (rec.status == "ok" && op == "copy" && variant == "warm" && !(f.gbs < c.gbs)) c.gbs = f.gbs;
    out["ops.csv"].push_back(report::ops_row(rec, c.gflops, c.gbs));
    return out;
  }

  report::StudyView view() const override { return report::ops_view(name()); }

 private:
  struct Ceilings {
    double gflops = NAN, gbs = NAN;
  };
  // From ops.csv's own columns, read by name.
  static Ceilings committed_ceilings(const report::CsvTable& t, const std::string& device) {
    Ceilings c;
    for (size_t r = 0; r < t.rows.size(); ++r) {
      if (t.get(r, report::col::device) != device || t.get(r, report::col::status) != "ok")
        continue;
      const std::string op = t.get(r, report::col::op);
      if (op == "fma_peak") {
        if (const auto g = report::parse_double(t.get(r, report::col::gflops))) c.gflops = *g;
      } else if (op == "copy" && t.get(r, report::col::variant) == "warm") {
        if (const auto g = report::parse_double(t.get(r, report::col::gbs)); g && !(*g < c.gbs))
          c.gbs = *g;
      }
    }
    return c;
  }
};

}  // namespace

int64_t available_memory_bytes(const std::string& root) { return memory_limit(root).bytes; }

std::unique_ptr<Study> make_ops_study() { return std::make_unique<OpsStudy>(); }

}  // namespace edp::bench
