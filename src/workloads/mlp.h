// The three two-layer MLP training programs of DESIGN §2 (from PyTorch's
// "Learning PyTorch with Examples", seed paper 002):
//
//   h = x w1;  h_relu = max(h, 0);  y_pred = h_relu w2;  loss = sum((y_pred - y)^2)
//   g = 2 (y_pred - y);  grad_w2 = h_relu^T g;  grad_h = (g w2^T) masked where h < 0
//   grad_w1 = x^T grad_h;  w1 -= lr grad_w1;  w2 -= lr grad_w2
//
// "tensors" writes forward and backward by hand, "autograd" records the
// forward on a Tape and calls backward(), "custom_relu" is autograd with ReLU
// as a user-defined Function. For the same seed and backend they follow the
// same loss trajectory up to float rounding.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
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

const std::vector<std::string>& mlp_workload_names();  // tensors, autograd, custom_relu

// Allocates and uploads everything; throws std::invalid_argument for an
// unknown name (listing the valid ones).
std::unique_ptr<MlpWorkload> make_mlp_workload(const std::string& name, Backend& backend,
                                               const MlpData& init, float learning_rate);

}  // namespace edp
