// Alg3 of seed paper 002: the autograd program with ReLU as a user-defined
// Function, like PyTorch's MyReLU: forward saves its input in the context,
// backward zeroes the gradient where the input was negative.
#include "workloads/mlp_autograd.h"
#include "workloads/mlp_variants.h"

namespace edp {

namespace {

class MyReLU final : public autograd::Function {
 public:
  std::string name() const override { return "MyReLU"; }
  Tensor forward(autograd::Context& ctx, const std::vector<Tensor>& inputs) override {
    const Tensor& x = inputs[0];
    ctx.save_for_backward({x});
    Tensor y = ctx.backend().empty(x.rows(), x.cols());
    ctx.backend().relu(x, y);  // input.clamp(min=0)
    return y;
  }
  std::vector<Tensor> backward(autograd::Context& ctx, const Tensor& grad_output) override {
    const Tensor& x = ctx.saved_tensors()[0];
    Tensor grad_input = ctx.backend().empty(x.rows(), x.cols());
    ctx.backend().relu_backward(grad_output, x, grad_input);  // grad_input[input < 0] = 0
    return {grad_input};
  }
};

class CustomReluMlp final : public AutogradMlp {
 public:
  using AutogradMlp::AutogradMlp;
  std::string name() const override { return "custom_relu"; }

 protected:
  autograd::Variable activation(autograd::Tape& tape, const autograd::Variable& h) override {
    return tape.apply(std::make_shared<MyReLU>(), {h});
  }
};

}  // namespace

std::unique_ptr<MlpWorkload> make_custom_relu_mlp(Backend& b, const MlpData& init, float lr) {
  return std::make_unique<CustomReluMlp>(b, init, lr);
}

}  // namespace edp
