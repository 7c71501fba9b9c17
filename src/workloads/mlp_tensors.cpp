// Alg1 of seed paper 002: forward and backward written by hand on the tensor
// API. Fusions that keep the math of DESIGN §2: the loss kernel also leaves
// diff = y_pred - y; the factor 2 of g = 2 diff goes into the GEMM alpha;
// the updates are GEMMs with beta = 1 (w -= lr A^T B), so grad_w1 and grad_w2
// are never materialised. grad_h is computed before w2 is updated, since it
// needs the old w2. run(backward) without the update materialises grad_w2 and
// grad_w1 with the same GEMMs at beta = 0 instead (the forward_backward stage
// workload); in the full step the update costs only the beta = 1 read of w.
#include "workloads/mlp_variants.h"

namespace edp {

namespace {

class TensorsMlp final : public MlpWorkload {
 public:
  TensorsMlp(Backend& b, const MlpData& init, float lr) : MlpWorkload(b, init, lr) {
    const MlpShape& s = init.shape;
    h_ = b.empty(s.n, s.h);
    h_relu_ = b.empty(s.n, s.h);
    y_pred_ = b.empty(s.n, s.d_out);
    diff_ = b.empty(s.n, s.d_out);
    grad_h_ = b.empty(s.n, s.h);
  }
  std::string name() const override { return "tensors"; }

  void run(MlpStage upto) override {
    Backend& b = backend_;
    b.gemm(Trans::N, Trans::N, 1.0f, x_, w1_, 0.0f, h_);            // h = x w1
    b.relu(h_, h_relu_);                                            // h_relu = max(h, 0)
    b.gemm(Trans::N, Trans::N, 1.0f, h_relu_, w2_, 0.0f, y_pred_);  // y_pred = h_relu w2
    b.sub_square_sum(y_pred_, y_, diff_, loss_);                    // loss = sum(diff^2)
    stage_done(MlpStage::forward);
    if (upto == MlpStage::forward) return;
    b.gemm(Trans::N, Trans::T, 2.0f, diff_, w2_, 0.0f, grad_h_);  // g w2^T, g = 2 diff
    b.relu_backward(grad_h_, h_, grad_h_);                        // masked where h < 0
    if (upto == MlpStage::backward) {
      const MlpShape s{x_.rows(), x_.cols(), h_.cols(), y_.cols()};
      if (!grad_w1_.defined()) {
        grad_w1_ = b.empty(s.d_in, s.h);
        grad_w2_ = b.empty(s.h, s.d_out);
      }
      b.gemm(Trans::T, Trans::N, 2.0f, h_relu_, diff_, 0.0f, grad_w2_);  // h_relu^T g
      b.gemm(Trans::T, Trans::N, 1.0f, x_, grad_h_, 0.0f, grad_w1_);     // x^T grad_h
      stage_done(MlpStage::backward);
      return;
    }
    stage_done(MlpStage::backward);
    b.gemm(Trans::T, Trans::N, -2.0f * lr_, h_relu_, diff_, 1.0f, w2_);  // w2 -= lr h_relu^T g
    b.gemm(Trans::T, Trans::N, -lr_, x_, grad_h_, 1.0f, w1_);            // w1 -= lr x^T grad_h
    stage_done(MlpStage::update);
  }

 private:
  Tensor h_, h_relu_, y_pred_, diff_, grad_h_;
  Tensor grad_w1_, grad_w2_;  // forward_backward only (the step fuses them into the update)
};

}  // namespace

std::unique_ptr<MlpWorkload> make_tensors_mlp(Backend& b, const MlpData& init, float lr) {
  return std::make_unique<TensorsMlp>(b, init, lr);
}

}  // namespace edp
