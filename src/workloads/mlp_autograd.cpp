// Alg2 of seed paper 002: the network is built from differentiable
// operations on a Tape every iteration; the gradients come from backward().
// The ReLU is a protected hook so that mlp_custom_relu.cpp can replace it.
#include "workloads/mlp_autograd.h"

namespace edp {

AutogradMlp::AutogradMlp(Backend& b, const MlpData& init, float lr)
    : MlpWorkload(b, init, lr), tape_(b) {}

autograd::Variable AutogradMlp::activation(autograd::Tape& tape, const autograd::Variable& h) {
  return tape.clamp_min(h, 0.0f);
}

void AutogradMlp::run(MlpStage upto) {
  using autograd::Variable;
  Backend& b = backend_;
  Variable x = tape_.leaf(x_, false), y = tape_.leaf(y_, false);
  Variable w1 = tape_.leaf(w1_, true), w2 = tape_.leaf(w2_, true);

  Variable h_relu = activation(tape_, tape_.matmul(x, w1));
  Variable y_pred = tape_.matmul(h_relu, w2);
  Variable loss = tape_.sum(tape_.square(tape_.sub(y_pred, y)));
  loss_ = loss.value();
  stage_done(MlpStage::forward);
  if (upto == MlpStage::forward) {
    tape_.clear();  // no backward: drop the record (and the saved tensors)
    return;
  }
  tape_.backward(loss);
  stage_done(MlpStage::backward);
  if (upto == MlpStage::backward) return;

  // w -= lr * w.grad (the leaves share storage with w1_ and w2_).
  b.axpy(-lr_, w1.grad(), w1_);
  b.axpy(-lr_, w2.grad(), w2_);
  stage_done(MlpStage::update);
}

std::unique_ptr<MlpWorkload> make_autograd_mlp(Backend& b, const MlpData& init, float lr) {
  return std::make_unique<AutogradMlp>(b, init, lr);
}

}  // namespace edp
