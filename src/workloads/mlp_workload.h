// What one MLP training program is (MlpWorkload, the base of the three of
// workloads/mlp.h) and the data it starts from: the shape, the initial
// tensors and the stages of one iteration.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "workloads/backend.h"

namespace edp {

struct MlpShape {
  int64_t n = 0, d_in = 0, h = 0, d_out = 0;
};

// Host copies of the initial tensors, row-major float32.
struct MlpData {
  MlpShape shape;
  std::vector<float> x, y, w1, w2;
};

// x, y, w1, w2 ~ normal(0, 1) * init_scale, each from its own stream of a
// generator seeded with `seed`, so a tensor does not change when another
// tensor's size does. Deterministic on every platform (own Box-Muller).
MlpData make_initial_data(const MlpShape& shape, uint64_t seed, double init_scale);

// The stages of one training iteration (DESIGN §2.2): forward (with the
// loss), backward, update, in that order.
enum class MlpStage { forward = 0, backward = 1, update = 2 };

class MlpWorkload {
 public:
  virtual ~MlpWorkload() = default;
  virtual std::string name() const = 0;
  // One training iteration: forward, loss, backward, update.
  void step() { run(MlpStage::update); }
  // The iteration up to and including `upto`: forward only (loss included),
  // forward and backward (gradients computed, weights unchanged), or the
  // full step. The math of each stage is the step's own.
  virtual void run(MlpStage upto) = 0;
  // Called with each stage right after the stage has been queued (profiling;
  // see src/workloads/mlp_stages.h). An empty hook (the default) costs nothing.
  void set_stage_hook(std::function<void(MlpStage)> hook) { hook_ = std::move(hook); }
  // The loss of the latest step (computed before its update), as a 1x1
  // tensor on the backend: reading it is the caller's choice (it synchronises).
  const Tensor& loss() const { return loss_; }
  // Puts the weights back to their initial values (x and y never change).
  void reset(const MlpData& init);
  Backend& backend() const { return backend_; }

 protected:
  MlpWorkload(Backend& backend, const MlpData& init, float learning_rate);
  Backend& backend_;
  float lr_;
  Tensor x_, y_, w1_, w2_;
  Tensor loss_;
  void stage_done(MlpStage s) {
    if (hook_) hook_(s);
  }

 private:
  std::function<void(MlpStage)> hook_;
};

}  // namespace edp
