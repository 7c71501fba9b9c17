#include "workloads/autograd.h"

#include <stdexcept>

namespace edp::autograd {

namespace {

// c = a b.  dA = dC b^T,  dB = a^T dC.
class MatMul final : public Function {
 public:
  std::string name() const override { return "matmul"; }
  Tensor forward(Context& ctx, const std::vector<Tensor>& in) override {
    Backend& be = ctx.backend();
    Tensor c = be.empty(in[0].rows(), in[1].cols());
    be.gemm(Trans::N, Trans::N, 1.0f, in[0], in[1], 0.0f, c);
    ctx.save_for_backward({in[0], in[1]});
    return c;
  }
  std::vector<Tensor> backward(Context& ctx, const Tensor& g) override {
    Backend& be = ctx.backend();
    const Tensor& a = ctx.saved_tensors()[0];
    const Tensor& b = ctx.saved_tensors()[1];
    std::vector<Tensor> grads(2);
    if (ctx.needs_input_grad()[0]) {
      grads[0] = be.empty(a.rows(), a.cols());
      be.gemm(Trans::N, Trans::T, 1.0f, g, b, 0.0f, grads[0]);
    }
    if (ctx.needs_input_grad()[1]) {
      grads[1] = be.empty(b.rows(), b.cols());
      be.gemm(Trans::T, Trans::N, 1.0f, a, g, 0.0f, grads[1]);
    }
    return grads;
  }
};

// y = max(x, min) with min = 0 (the only bound the backends implement).
// dx = dy where x >= min, 0 where x < min.
class ClampMin final : public Function {
 public:
  std::string name() const override { return "clamp_min"; }
  Tensor forward(Context& ctx, const std::vector<Tensor>& in) override {
    if (ctx.attribute != 0.0f) throw std::invalid_argument("clamp_min: only min = 0 is supported");
    Tensor y = ctx.backend().empty(in[0].rows(), in[0].cols());
    ctx.backend().relu(in[0], y);
    ctx.save_for_backward({in[0]});
    return y;
  }
  std::vector<Tensor> backward(Context& ctx, const Tensor& g) override {
    const Tensor& x = ctx.saved_tensors()[0];
    Tensor dx = ctx.backend().empty(x.rows(), x.cols());
    ctx.backend().relu_backward(g, x, dx);
    return {dx};
  }
};

// c = a - b.  dA = dC,  dB = -dC.
class Sub final : public Function {
 public:
  std::string name() const override { return "sub"; }
  Tensor forward(Context& ctx, const std::vector<Tensor>& in) override {
    Tensor c = ctx.backend().empty(in[0].rows(), in[0].cols());
    ctx.backend().sub(in[0], in[1], c);
    return c;
  }
  std::vector<Tensor> backward(Context& ctx, const Tensor& g) override {
    std::vector<Tensor> grads(2);
    if (ctx.needs_input_grad()[0]) grads[0] = g;  // shared: gradients are never written in place
    if (ctx.needs_input_grad()[1]) {
      grads[1] = ctx.backend().empty(g.rows(), g.cols());
      ctx.backend().scale(g, -1.0f, grads[1]);
    }
    return grads;
  }
};

// y = x^2.  dx = 2 x dy.
class Square final : public Function {
 public:
  std::string name() const override { return "pow2"; }
  Tensor forward(Context& ctx, const std::vector<Tensor>& in) override {
    Tensor y = ctx.backend().empty(in[0].rows(), in[0].cols());
    ctx.backend().square(in[0], y);
    ctx.save_for_backward({in[0]});
    return y;
  }
  std::vector<Tensor> backward(Context& ctx, const Tensor& g) override {
    const Tensor& x = ctx.saved_tensors()[0];
    Tensor dx = ctx.backend().empty(x.rows(), x.cols());
    ctx.backend().mul(x, g, dx);
    ctx.backend().scale(dx, 2.0f, dx);
    return {dx};
  }
};

// s = sum(x) (1x1).  dx = ds broadcast to the shape of x.
class Sum final : public Function {
 public:
  std::string name() const override { return "sum"; }
  Tensor forward(Context& ctx, const std::vector<Tensor>& in) override {
    Tensor s = ctx.backend().empty(1, 1);
    ctx.backend().sum(in[0], s);
    rows_ = in[0].rows();
    cols_ = in[0].cols();
    return s;
  }
  std::vector<Tensor> backward(Context& ctx, const Tensor& g) override {
    Tensor dx = ctx.backend().empty(rows_, cols_);
    ctx.backend().broadcast(g, dx);
    return {dx};
  }

 private:
  int64_t rows_ = 0, cols_ = 0;
};

}  // namespace

Variable Tape::leaf(Tensor value, bool requires_grad) {
  auto d = std::make_shared<VariableData>();
  d->value = std::move(value);
  d->requires_grad = requires_grad;
  return Variable(std::move(d));
}

Variable Tape::apply(std::shared_ptr<Function> fn, const std::vector<Variable>& inputs) {
  auto ctx = std::make_unique<Context>(backend_);
  std::vector<Tensor> values;
  std::vector<bool> needs;
  bool any = false;
  for (const Variable& v : inputs) {
    values.push_back(v.value());
    needs.push_back(v.requires_grad());
    any = any || v.requires_grad();
  }
  ctx->set_needs_input_grad(needs);
  return apply_with(std::move(fn), std::move(ctx), inputs, values, any);
}

Variable Tape::apply_with(std::shared_ptr<Function> fn, std::unique_ptr<Context> ctx,
                          const std::vector<Variable>& inputs, const std::vector<Tensor>& values,
                          bool record) {
  auto out = std::make_shared<VariableData>();
  out->value = fn->forward(*ctx, values);
  out->requires_grad = record;
  if (record) {
    Entry e;
    e.fn = std::move(fn);
    e.ctx = std::move(ctx);
    for (const Variable& v : inputs) e.inputs.push_back(v.data());
    e.output = out;
    entries_.push_back(std::move(e));
  }
  return Variable(std::move(out));
}

Variable Tape::matmul(const Variable& a, const Variable& b) {
  return apply(std::make_shared<MatMul>(), {a, b});
}
Variable Tape::clamp_min(const Variable& x, float min) {
  auto ctx = std::make_unique<Context>(backend_);
  ctx->attribute = min;
  ctx->set_needs_input_grad({x.requires_grad()});
  return apply_with(std::make_shared<ClampMin>(), std::move(ctx), {x}, {x.value()},
                    x.requires_grad());
}
Variable Tape::sub(const Variable& a, const Variable& b) {
  return apply(std::make_shared<Sub>(), {a, b});
}
Variable Tape::square(const Variable& x) { return apply(std::make_shared<Square>(), {x}); }
Variable Tape::sum(const Variable& x) { return apply(std::make_shared<Sum>(), {x}); }

void Tape::accumulate(VariableData& v, Tensor g) {
  if (!v.grad.defined()) {
    v.grad = std::move(g);
    return;
  }
  // A second contribution: add into a tensor this variable owns alone, since
  // the first one may be shared with another variable (Sub passes dC through).
  Tensor sum = backend_.empty(v.grad.rows(), v.grad.cols());
  backend_.copy(v.grad, sum);
  backend_.axpy(1.0f, g, sum);
  v.grad = std::move(sum);
}

void Tape::backward(const Variable& loss) {
  if (loss.value().numel() != 1)
    throw std::invalid_argument("backward: the loss must be a 1x1 tensor");
  if (!loss.requires_grad()) throw std::logic_error("backward: the loss does not require grad");
  Tensor seed = backend_.empty(1, 1);
  backend_.fill(seed, 1.0f);
  loss.data()->grad = seed;
  for (auto it = entries_.rbegin(); it != entries_.rend(); ++it) {
    VariableData& out = *it->output;
    if (!out.grad.defined()) continue;  // not on a path to the loss
    std::vector<Tensor> grads = it->fn->backward(*it->ctx, out.grad);
    out.grad = Tensor();  // intermediate gradients are freed as soon as used
    for (size_t i = 0; i < it->inputs.size(); ++i) {
      if (it->inputs[i]->requires_grad && grads.at(i).defined())
        accumulate(*it->inputs[i], std::move(grads[i]));
    }
  }
  entries_.clear();
}

}  // namespace edp::autograd
