// A small reverse-mode automatic differentiation tape over Backend tensors.
//
// Every differentiable operation, built-in or user-defined, is a Function
// with forward(ctx, inputs) and backward(ctx, grad_output), as in PyTorch's
// torch.autograd.Function. Tape::apply runs forward and, when any input
// requires a gradient, records (function, context, inputs, output) in order.
// Tape::backward(loss) walks that record in reverse, calling each backward
// and accumulating gradients into the inputs; leaves keep theirs in grad().
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "workloads/backend.h"

namespace edp::autograd {

struct VariableData {
  Tensor value;
  Tensor grad;  // undefined until a backward pass reaches this variable
  bool requires_grad = false;
};

// A handle to a value on the tape (cheap to copy).
class Variable {
 public:
  Variable() = default;
  explicit Variable(std::shared_ptr<VariableData> d) : d_(std::move(d)) {}
  const Tensor& value() const { return d_->value; }
  Tensor& value() { return d_->value; }
  const Tensor& grad() const { return d_->grad; }
  bool requires_grad() const { return d_->requires_grad; }
  const std::shared_ptr<VariableData>& data() const { return d_; }

 private:
  std::shared_ptr<VariableData> d_;
};

// What a Function keeps between forward and backward.
class Context {
 public:
  explicit Context(Backend& backend) : backend_(&backend) {}
  Backend& backend() const { return *backend_; }
  void save_for_backward(std::vector<Tensor> tensors) { saved_ = std::move(tensors); }
  const std::vector<Tensor>& saved_tensors() const { return saved_; }
  // needs_input_grad()[i]: whether backward must produce a gradient for input i.
  const std::vector<bool>& needs_input_grad() const { return needs_input_grad_; }
  void set_needs_input_grad(std::vector<bool> v) { needs_input_grad_ = std::move(v); }
  // Scalar attributes an operation wants to keep (e.g. clamp_min's bound).
  float attribute = 0.0f;

 private:
  Backend* backend_;
  std::vector<Tensor> saved_;
  std::vector<bool> needs_input_grad_;
};

class Function {
 public:
  virtual ~Function() = default;
  virtual std::string name() const = 0;
  virtual Tensor forward(Context& ctx, const std::vector<Tensor>& inputs) = 0;
  // One gradient per input; an undefined Tensor where !needs_input_grad()[i].
  virtual std::vector<Tensor> backward(Context& ctx, const Tensor& grad_output) = 0;
};

class Tape {
 public:
  explicit Tape(Backend& backend) : backend_(backend) {}
  Tape(const Tape&) = delete;
  Tape& operator=(const Tape&) = delete;

  Backend& backend() const { return backend_; }

  Variable leaf(Tensor value, bool requires_grad);
  Variable apply(std::shared_ptr<Function> fn, const std::vector<Variable>& inputs);

  // The differentiable operations the MLP workloads use.
  Variable matmul(const Variable& a, const Variable& b);
  Variable clamp_min(const Variable& x, float min);
  Variable sub(const Variable& a, const Variable& b);
  Variable square(const Variable& x);  // pow(x, 2)
  Variable sum(const Variable& x);     // 1x1

  // Seeds d(loss)/d(loss) = 1 (loss must be 1x1) and runs the recorded
  // backward functions in reverse order. Leaf gradients accumulate (add to
  // an existing grad); the record is cleared afterwards, as PyTorch frees
  // the graph after backward().
  void backward(const Variable& loss);
  size_t recorded() const { return entries_.size(); }
  void clear() { entries_.clear(); }

 private:
  struct Entry {
    std::shared_ptr<Function> fn;
    std::unique_ptr<Context> ctx;
    std::vector<std::shared_ptr<VariableData>> inputs;
    std::shared_ptr<VariableData> output;
  };
  Variable apply_with(std::shared_ptr<Function> fn, std::unique_ptr<Context> ctx,
                      const std::vector<Variable>& inputs, const std::vector<Tensor>& values,
                      bool record);
  void accumulate(VariableData& v, Tensor g);

  Backend& backend_;
  std::vector<Entry> entries_;
};

}  // namespace edp::autograd
