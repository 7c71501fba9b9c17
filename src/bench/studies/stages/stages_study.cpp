// The stages study (see study_stages.h).
#include "bench/studies/stages/stages_study.h"

#include "bench/protocol/gemm_choice.h"
#include "bench/protocol/step_timing.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>

#include "bench/studies/memory_check.h"
#include "bench/studies/mlp/mlp_study.h"
#include "bench/studies/stages/stages_config.h"
#include "edpbench/config.h"
#include "platform/peaks.h"
#include "report/results_csv.h"
#include "report/stages_csv.h"
#include "workloads/cuda_factory.h"
#include "workloads/mlp_stages.h"
#include "workloads/mlp_step.h"
#include "workloads/op_workloads.h"

namespace edp::bench {
namespace {

namespace sv = report::stage_values;

PlanItem stages_item(const Config& cfg, const std::string& program, const SizeSpec& size,
                     const DeviceSpec& dev, const std::string& relu) {
  PlanItem item;
  item.study = "stages";
  item.params = {{"workload", program}, {"size", size.name}, {"device", dev.label}};
  if (!relu.empty()) item.params.push_back({"relu", relu});
  item.key = item_key(item.study, item.params);
  item.device = &dev;
  item.size = size.name;
  item.settings = mlp_settings(cfg, dev);
  item.values = mlp_shape_values(size);
  item.label = "stages/" + program + "/" + size.name + "/" + dev.label +
               (relu.empty() ? "" : "/relu=" + relu);
  const MlpShape shape{size.n, size.d_in, size.h, size.d_out};
  item.settings.gemm_shape = gemm_shape_key(shape);
  const uint64_t seed = cfg.seed;
  const double scale = cfg.init_scale;
  const float lr = static_cast<float>(cfg.learning_rate);
  // The variant path runs on a backend of its own (same device and sync
  // mode, the other ReLU path); the item's backend stays idle meanwhile.
  const bool own_backend = !relu.empty() && relu != cfg.gpu.relu;
  const CudaOptions variant{dev.index, relu, cfg.gpu.sync, ""};
  for (const std::string& stage : mlp_stage_workload_names())
    item.parts.push_back({stage, [=](Backend& be) {
                            std::unique_ptr<Backend> owned;
                            if (own_backend) owned = make_cuda_backend(variant);
                            return make_mlp_stage_workload(program, stage, be,
                                                           make_initial_data(shape, seed, scale),
                                                           lr, std::move(owned));
                          }});
  item.flop_estimate = (mlp_flop_upto(shape, MlpStage::forward) +
                        mlp_flop_upto(shape, MlpStage::backward) + mlp_step_flop(shape)) *
                       cfg.iterations * cfg.runs;
  return item;
}

// The achievable FLOP rate of the item's backend, measured now: the fma_peak
// workload (register-resident FMA chains on every worker or SM, DESIGN §9.1)
// in three blocks of at least 0.1 s each, the fastest block kept. NaN for
// the reference backend (its fma_peak is a sequential baseline of scalar
// chains, not a peak) and for a backend without the kernel. About 0.4 s,
// after the energy windows, so no window sees it.
double measured_fma_peak_flops(Backend& be) {
  if (be.name() == "reference") return NAN;
  std::unique_ptr<Workload> wl;
  try {
    OpSpec spec;
    spec.op = "fma_peak";
    wl = make_op_workload(spec, be);
    wl->step();  // warm-up: clocks up, code and constants resident
    be.synchronize();
  } catch (const std::logic_error&) {
    return NAN;  // no fma_peak kernel on this backend
  }
  double best = 0;
  for (int block = 0; block < 3; ++block) {
    const StepTiming t = time_steps_for(*wl, 0.1);
    best = std::max(best, wl->flop_per_step() * static_cast<double>(t.steps) / t.elapsed_s);
  }
  return best > 0 ? best : NAN;
}

class StagesStudy final : public Study {
 public:
  std::string name() const override { return "stages"; }

  std::vector<PlanItem> plan(const Config& cfg) const override {
    std::vector<PlanItem> items;
    for (const auto& program : cfg.workloads)
      for (const auto& size_name : cfg.section<StagesConfig>().sizes) {
        auto size = std::find_if(cfg.sizes.begin(), cfg.sizes.end(),
                                 [&](const SizeSpec& s) { return s.name == size_name; });
        if (size == cfg.sizes.end()) continue;  // the config loader refuses unknown names
        for (const auto& dev : cfg.devices) {
          if (dev.kind != "gpu" || !stages_relu_variants()) {
            items.push_back(stages_item(cfg, program, *size, dev, ""));
            continue;
          }
          const std::string other = cfg.gpu.relu == "cudnn" ? "kernel" : "cudnn";
          items.push_back(stages_item(cfg, program, *size, dev, cfg.gpu.relu));
          items.push_back(stages_item(cfg, program, *size, dev, other));
        }
      }
    return items;
  }

  std::string commit_file() const override { return "stages.csv"; }
  std::vector<OutputFile> own_files() const override {
    // memory.csv first: stages.csv commits the item's rows in both.
    return {{"memory.csv", report::memory_columns(), false, report::required_memory_columns()},
            {"stages.csv", report::stages_columns(), true, report::required_stages_columns()}};
  }

  std::vector<MemoryNeed> memory_needs(const Config& cfg) const override {
    std::vector<SizeSpec> shapes;
    for (const auto& size_name : cfg.section<StagesConfig>().sizes)
      for (const auto& s : cfg.sizes)
        if (s.name == size_name) {
          shapes.push_back(s);
          break;
        }
    return mlp_memory_needs(cfg, name(), shapes);
  }

  FileRows rows(const report::ItemRecord& rec, const report::CsvTable&) const override {
    FileRows out;
    out["stages.csv"] = report::stages_rows(rec);
    out["memory.csv"] = report::memory_rows(rec);
    return out;
  }

  report::StudyView view() const override { return report::stages_view(name()); }

  // The profiled pass and memory, on a fresh step workload (the backend the
  // parts ran on, or the variant's own), after every energy window.
  void after_parts(Backend& be, const PlanItem& item, const PassContext& ctx,
                   report::ItemRecord& rec) const override {
    const Part& step = item.parts.back();
    TimedSetup setup = make_timed(step, be);
    std::unique_ptr<Workload> wl = std::move(setup.workload);
    const double setup_s = setup.setup_s;
    ProfiledStages* ps = as_profiled_stages(*wl);
    if (!ps) return;
    const int steps = std::max(1, std::min(item.settings.steps, 50));
    const int warmup = std::max(1, std::min(item.settings.warmup_steps, 3));
    const StageProfile p = ps->profile(steps, warmup);
    auto& v = rec.values;
    v[sv::time_s("setup")] = setup_s;
    v[sv::time_s("h2d_copy")] = p.h2d_copy_s;
    v[sv::time_s("forward")] = p.forward_s;
    v[sv::time_s("backward")] = p.backward_s;
    v[sv::time_s("update")] = p.update_s;
    v[sv::time_s("loss_readback")] = p.loss_readback_s;
    v[sv::kStepWallS] = p.step_wall_s;
    v[sv::kDeviceTimer] = p.device_timer ? 1 : 0;
    v["profile_steps"] = p.steps;

    const MlpShape shape = mlp_shape_of(item);
    const std::string program = item.params.front().second;
    v[sv::flop("forward")] = mlp_profiled_stage_flop(program, shape, MlpStage::forward);
    v[sv::flop("backward")] = mlp_profiled_stage_flop(program, shape, MlpStage::backward);
    v[sv::flop("update")] = mlp_profiled_stage_flop(program, shape, MlpStage::update);
    v[sv::flop("step")] = mlp_step_flop(shape);

    // The peak at the clock read now, right after the timed parts.
    platform::Peak peak;
    if (item.device->kind == "gpu")
      peak = platform::gpu_peak(ctx.platform, cuda_device_info(item.device->index));
    else if (!ctx.cpus.empty())
      peak = platform::cpu_peak_now(ctx.platform, ctx.cpus);
    const double flops =
        std::isfinite(peak.flops_at_clock) ? peak.flops_at_clock : peak.flops_nominal;
    if (std::isfinite(flops) && flops > 0) v[sv::kPeakFlops] = flops;
    const double measured = measured_fma_peak_flops(wl->backend());
    if (std::isfinite(measured)) v[sv::kFmaPeakFlops] = measured;

    int order = 0;
    for (const TensorBytes& t : ps->memory_computed())
      v[sv::memory_key(order++, t.tensor, t.kind)] = t.bytes;
    v[sv::kMemMeasured] = ps->memory_measured_bytes();
  }
};

}  // namespace

bool stages_relu_variants() { return EDPBENCH_HAVE_CUDNN != 0; }

std::unique_ptr<Study> make_stages_study() { return std::make_unique<StagesStudy>(); }

}  // namespace edp::bench
