// The stage workloads of DESIGN §2.2 and what the stages study reads from
// them besides energy: for each MLP program, `forward` (forward and loss),
// `forward_backward` (gradients, no update) and the full `step`, each a
// Workload the protocol measures like any other; a profiled pass that times
// every stage of the step; and the memory per tensor, computed from the
// shapes and measured through the backend's allocations.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "workloads/mlp.h"
#include "workloads/workload.h"

namespace edp {

// forward, forward_backward, step (the parts of a stages item, in order).
const std::vector<std::string>& mlp_stage_workload_names();
// The last stage a stage workload runs; throws std::invalid_argument for an
// unknown name.
MlpStage mlp_stage_upto(const std::string& stage_workload);

// GEMM FLOPs of one stage alone (DESIGN §2.1 convention, GEMMs only):
// forward 2 N D_in H + 2 N H D_out; backward 2 N D_in H + 4 N H D_out
// (grad_w1, grad_w2 and grad_h); update 0 (no GEMM of its own: its
// arithmetic is mlp_update_flop). The three add up to mlp_step_flop().
double mlp_stage_flop(const MlpShape& shape, MlpStage stage);
// GEMM FLOPs of the stages up to and including `upto`.
double mlp_flop_upto(const MlpShape& shape, MlpStage upto);
// Element-wise FLOPs of the update, w -= lr grad: 2 per weight.
double mlp_update_flop(const MlpShape& shape);
// FLOPs a stage of `program`'s full step executes, for the profiled times:
// as mlp_stage_flop, plus the update's element-wise FLOPs, except that the
// tensors program fuses grad_w1 and grad_w2 into its update GEMMs, so its
// backward runs only grad_h (2 N H D_out) and its update the rest.
double mlp_profiled_stage_flop(const std::string& program, const MlpShape& shape, MlpStage stage);

// A stage workload of `program` on `backend`. With `owned` (the GPU ReLU
// variant of the stages study) the workload runs on that backend instead and
// keeps it alive as long as itself.
std::unique_ptr<Workload> make_mlp_stage_workload(const std::string& program,
                                                  const std::string& stage_workload,
                                                  Backend& backend, MlpData init,
                                                  float learning_rate,
                                                  std::unique_ptr<Backend> owned = nullptr);

// Seconds per stage of one profiled step (means over the profiled steps).
// forward..loss_readback are one step; setup (allocation, initial upload,
// workload construction) and h2d_copy (the upload of x, y, w1, w2 alone)
// happen once. step_wall_s is the host's wall time of the whole profiled
// step, readback included; the stage times add up to at most that (the
// host's launches between two device marks are not stage time).
struct StageProfile {
  double setup_s = 0, h2d_copy_s = 0;
  double forward_s = 0, backward_s = 0, update_s = 0, loss_readback_s = 0;
  double step_wall_s = 0;
  int steps = 0;
  bool device_timer = false;  // CUDA events (true) or synchronised steady_clock
};

// The profiled pass (never inside an energy window) on a built program:
// times the upload of `init` (h2d_copy), runs `warmup` steps, then `steps`
// steps with a mark after every stage: the backend's device timer (CUDA
// events; the stop waits for its mark, so stages are serialised) where it
// has one, otherwise synchronise and steady_clock. The loss is read back
// after each step and timed. setup_s is left 0 (the caller times the build).
StageProfile profile_mlp_stages(MlpWorkload& mlp, const MlpData& init, int steps, int warmup);

// One tensor of a program's step. kind: weight, activation, gradient, saved
// (kept by the autograd tape for backward; the storage is an activation's or
// a weight's, so it adds nothing to the total), workspace.
struct TensorBytes {
  std::string tensor, kind;
  double bytes = 0;
};
// From the shapes (float32), for the full step of `program`.
std::vector<TensorBytes> mlp_memory_computed(const std::string& program, const MlpShape& shape);
// Sum of the computed bytes that own storage (every kind but saved).
double mlp_memory_total(const std::vector<TensorBytes>& tensors);

// The high-water mark of the bytes `program` holds through `backend`:
// every tensor the workload allocates (construction, two full steps) is
// counted while it is alive, whatever the backend's pool caches.
double measure_mlp_memory_bytes(const std::string& program, Backend& backend, const MlpData& init,
                                float learning_rate);

// What a stage workload exposes to the profiled pass (the stages study's
// extra pass): its profile and its memory, on its own backend.
class ProfiledStages {
 public:
  virtual ~ProfiledStages() = default;
  virtual StageProfile profile(int steps, int warmup) = 0;
  virtual std::vector<TensorBytes> memory_computed() const = 0;
  virtual double memory_measured_bytes() = 0;
};
// The interface of a workload from make_mlp_stage_workload(); nullptr for
// any other workload.
ProfiledStages* as_profiled_stages(Workload& workload);

}  // namespace edp
