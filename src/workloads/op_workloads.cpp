#include "workloads/op_workloads.h"

#include <stdexcept>
#include <string>

#include "workloads/cache_flush.h"

namespace edp {

namespace {

std::string valid_ops() {
  std::string list;
  for (const auto& n : op_names()) list += (list.empty() ? "" : ", ") + n;
  return list;
}

// The buffer a cold op writes before each step, or the "flush" op itself.
// Alternating values, so no step writes what is already there.
class Flusher {
 public:
  Flusher(Backend& backend, int64_t bytes)
      : backend_(backend), buffer_(backend.empty(1, bytes / static_cast<int64_t>(sizeof(float)))) {}
  void run() {
    value_ = value_ == 1.0f ? 2.0f : 1.0f;
    backend_.fill(buffer_, value_);
  }
  double bytes() const { return 4.0 * static_cast<double>(buffer_.numel()); }

 private:
  Backend& backend_;
  Tensor buffer_;
  float value_ = 0.0f;
};

class OpWorkload : public Workload {
 public:
  OpWorkload(const OpSpec& spec, Backend& backend) : Workload(backend), op_(spec.op) {
    if (spec.cold) flusher_ = std::make_unique<Flusher>(backend, flush_bytes_for(backend));
  }
  std::string name() const override { return op_; }
  void step() final {
    if (flusher_) flusher_->run();
    run();
  }
  void reset() override {}  // every step recomputes its outputs from unchanged inputs

 protected:
  virtual void run() = 0;
  std::string op_;

 private:
  std::unique_ptr<Flusher> flusher_;
};

class ElementWise final : public OpWorkload {
 public:
  ElementWise(const OpSpec& spec, Backend& backend, int64_t n) : OpWorkload(spec, backend) {
    counts_ = element_counts(spec.op);
    n_ = n;
    a_ = backend.empty(1, n);
    out_ = backend.empty(1, n);
    // Inputs inside the range where sigmoid and tanh do real work (no
    // saturation shortcut); the values do not change the time of the others.
    backend.fill(a_, 0.5f);
    backend.fill(out_, 0.0f);
    if (counts_.arrays == 3) {
      b_ = backend.empty(1, n);
      backend.fill(b_, 0.25f);
    }
  }
  double flop_per_step() const override { return counts_.flop_per_element * n_; }
  double bytes_per_step() const override { return counts_.bytes_per_element * n_; }

 private:
  void run() override {
    Backend& be = backend();
    if (op_ == "copy") {
      be.copy(a_, out_);
    } else if (op_ == "add") {
      be.add(a_, b_, out_);
    } else if (op_ == "mul") {
      be.mul(a_, b_, out_);
    } else if (op_ == "scalar") {
      be.scale(a_, 1.0001f, out_);
    } else if (op_ == "sigmoid") {
      be.sigmoid(a_, out_);
    } else {
      be.tanh(a_, out_);
    }
  }
  ElementCounts counts_{};
  double n_ = 0;
  Tensor a_, b_, out_;
};

class Gemm final : public OpWorkload {
 public:
  Gemm(const OpSpec& spec, Backend& backend, int64_t m, int64_t n, int64_t k)
      : OpWorkload(spec, backend),
        ta_(spec.trans_a ? Trans::T : Trans::N),
        tb_(spec.trans_b ? Trans::T : Trans::N),
        m_(m),
        n_(n),
        k_(k) {
    a_ = spec.trans_a ? backend.empty(k, m) : backend.empty(m, k);
    b_ = spec.trans_b ? backend.empty(n, k) : backend.empty(k, n);
    c_ = backend.empty(m, n);
    // Small values: sums of k products stay far from overflow at any k.
    backend.fill(a_, 0.01f);
    backend.fill(b_, 0.02f);
  }
  double flop_per_step() const override { return 2.0 * m_ * n_ * k_; }
  double bytes_per_step() const override { return 4.0 * (m_ * k_ + k_ * n_ + m_ * n_); }

 private:
  void run() override { backend().gemm(ta_, tb_, 1.0f, a_, b_, 0.0f, c_); }
  Trans ta_, tb_;
  double m_, n_, k_;
  Tensor a_, b_, c_;
};

class FmaPeak final : public OpWorkload {
 public:
  FmaPeak(const OpSpec& spec, Backend& backend, int64_t rounds)
      : OpWorkload(spec, backend), rounds_(rounds), sink_(backend.empty(1, 1)) {
    flop_ = backend.fma_peak_flop(rounds);
    if (!(flop_ > 0))
      throw std::invalid_argument("fma_peak: the " + backend.name() +
                                  " backend has no FMA peak kernel");
  }
  double flop_per_step() const override { return flop_; }
  double bytes_per_step() const override { return 0.0; }

 private:
  void run() override { backend().fma_peak(rounds_, sink_); }
  int64_t rounds_;
  double flop_ = 0;
  Tensor sink_;
};

class Flush final : public OpWorkload {
 public:
  Flush(const OpSpec& spec, Backend& backend, int64_t bytes)
      : OpWorkload(spec, backend), flusher_(backend, bytes) {}
  double flop_per_step() const override { return 0.0; }
  double bytes_per_step() const override { return flusher_.bytes(); }

 private:
  void run() override { flusher_.run(); }
  Flusher flusher_;
};

int64_t positive_or(int64_t v, int64_t fallback) { return v > 0 ? v : fallback; }

}  // namespace

const std::vector<std::string>& op_names() {
  static const std::vector<std::string> names{"copy", "add",  "mul",      "scalar", "sigmoid",
                                              "tanh", "gemm", "fma_peak", "flush"};
  return names;
}

ElementCounts element_counts(const std::string& op) {
  if (op == "copy") return {2, 0.0, 8.0};
  if (op == "add" || op == "mul") return {3, 1.0, 12.0};
  if (op == "scalar") return {2, 1.0, 8.0};
  if (op == "sigmoid") return {2, 4.0, 8.0};
  if (op == "tanh") return {2, 1.0, 8.0};
  if (op == "flush") return {1, 0.0, 4.0};
  throw std::invalid_argument("op '" + op +
                              "' has no per-element counts (element-wise ops: copy, add, mul, "
                              "scalar, sigmoid, tanh, flush)");
}

double gemm_bytes(const OpSpec& spec) {
  const double m = static_cast<double>(spec.m), n = static_cast<double>(spec.n),
               k = static_cast<double>(spec.k);
  return 4.0 * (m * k + k * n + m * n);  // a_, b_, c_ of class Gemm below
}

std::unique_ptr<Workload> make_op_workload(const OpSpec& spec, Backend& backend) {
  const std::string& op = spec.op;
  if (op == "gemm") {
    const int64_t n = spec.n;
    const int64_t m = positive_or(spec.m, n), k = positive_or(spec.k, n);
    if (m <= 0 || n <= 0 || k <= 0)
      throw std::invalid_argument("gemm: m, n and k must be positive (got m=" +
                                  std::to_string(spec.m) + " n=" + std::to_string(spec.n) +
                                  " k=" + std::to_string(spec.k) + "; n alone means square)");
    return std::make_unique<Gemm>(spec, backend, m, n, k);
  }
  if (op == "fma_peak") {
    if (spec.rounds < 0) throw std::invalid_argument("fma_peak: rounds must be positive");
    return std::make_unique<FmaPeak>(spec, backend, positive_or(spec.rounds, kFmaPeakRounds));
  }
  if (op == "flush") {
    if (spec.bytes < 0) throw std::invalid_argument("flush: bytes must be positive");
    const int64_t bytes = spec.bytes > 0 ? spec.bytes : flush_bytes_for(backend);
    if (bytes < static_cast<int64_t>(sizeof(float)))
      throw std::invalid_argument("flush: bytes must be at least 4");
    return std::make_unique<Flush>(spec, backend, bytes);
  }
  for (const auto& name : op_names()) {
    if (name != op) continue;
    const ElementCounts c = element_counts(op);
    const auto n = static_cast<int64_t>(static_cast<double>(spec.bytes) / c.bytes_per_element);
    if (n < 1)
      throw std::invalid_argument(op + ": bytes=" + std::to_string(spec.bytes) +
                                  " is less than one element (" +
                                  std::to_string(static_cast<int>(c.bytes_per_element)) +
                                  " bytes: " + std::to_string(c.arrays) + " float32 arrays)");
    return std::make_unique<ElementWise>(spec, backend, n);
  }
  throw std::invalid_argument("unknown op '" + op + "' (valid: " + valid_ops() + ")");
}

std::vector<OpSpec> mlp_gemm_specs(const MlpShape& s) {
  auto g = [](int64_t m, int64_t n, int64_t k, bool ta, bool tb) {
    OpSpec o;
    o.op = "gemm";
    o.m = m;
    o.n = n;
    o.k = k;
    o.trans_a = ta;
    o.trans_b = tb;
    return o;
  };
  return {
      g(s.n, s.h, s.d_in, false, false),   // h = x w1
      g(s.n, s.d_out, s.h, false, false),  // y_pred = h_relu w2
      g(s.h, s.d_out, s.n, true, false),   // grad_w2 = h_relu^T g
      g(s.n, s.h, s.d_out, false, true),   // grad_h = g w2^T
      g(s.d_in, s.h, s.n, true, false),    // grad_w1 = x^T grad_h
  };
}

}  // namespace edp
