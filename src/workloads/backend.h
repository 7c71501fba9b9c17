// The one interface every compute backend implements (DESIGN §2): reference
// loops, Eigen on the CPU, and CUDA. A workload is written against this and
// never knows where it runs.
//
// Semantics shared by all backends:
//  - tensors are row-major float32; shapes are checked and a mismatch throws
//    std::invalid_argument before any work is queued;
//  - operations may be asynchronous (CUDA); download() and read_scalar()
//    synchronise, synchronize() waits for everything queued;
//  - reductions write into a 1x1 tensor so the value can stay on the device
//    until the protocol actually needs it.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "workloads/tensor.h"

namespace edp {

enum class Trans { N, T };

class Backend {
 public:
  virtual ~Backend() = default;
  Backend() = default;
  Backend(const Backend&) = delete;
  Backend& operator=(const Backend&) = delete;

  // "reference", "cpu" or "cuda".
  virtual std::string name() const = 0;
  // Free-form facts for context.json (GEMM path, threads, GPU name, ...).
  virtual std::map<std::string, std::string> describe() const { return {}; }

  // ---- memory ---------------------------------------------------------------
  // Uninitialised storage (from the backend's pool when possible).
  virtual Tensor empty(int64_t rows, int64_t cols) = 0;
  // Copies t.numel() floats from host to t / from t to host.
  virtual void upload(const float* host, Tensor& t) = 0;
  virtual void download(const Tensor& t, float* host) = 0;
  virtual void fill(Tensor& t, float value) = 0;
  virtual void copy(const Tensor& src, Tensor& dst) = 0;

  // ---- BLAS ----------------------------------------------------------------
  // c = alpha * op(a) * op(b) + beta * c. With beta == 0, c is not read (it
  // may hold NaN). op(x) is x or x^T. Shapes are checked.
  virtual void gemm(Trans ta, Trans tb, float alpha, const Tensor& a, const Tensor& b, float beta,
                    Tensor& c) = 0;
  // y += alpha * x
  virtual void axpy(float alpha, const Tensor& x, Tensor& y) = 0;

  // ---- element-wise (out may alias an input) --------------------------------
  virtual void relu(const Tensor& x, Tensor& y) = 0;  // y = x < 0 ? 0 : x (NaN stays NaN)
  // grad_x = (x < 0) ? 0 : grad_y   -- DESIGN §2: "masked where h < 0"
  virtual void relu_backward(const Tensor& grad_y, const Tensor& x, Tensor& grad_x) = 0;
  virtual void sub(const Tensor& a, const Tensor& b, Tensor& out) = 0;  // a - b
  virtual void mul(const Tensor& a, const Tensor& b, Tensor& out) = 0;  // a * b
  virtual void scale(const Tensor& x, float alpha, Tensor& out) = 0;    // alpha * x
  virtual void square(const Tensor& x, Tensor& out) = 0;                // x * x
  // out (any shape) = every element set to the value of the 1x1 tensor s.
  virtual void broadcast(const Tensor& s, Tensor& out) = 0;
  // Operator workloads (DESIGN §2.3). NaN in gives NaN out; sigmoid(-inf) = 0,
  // sigmoid(+inf) = 1, tanh(+-inf) = +-1. sigmoid and tanh are within a few
  // float ulp of the correctly rounded value on every backend (not bitwise).
  virtual void add(const Tensor& a, const Tensor& b, Tensor& out) = 0;  // a + b
  virtual void sigmoid(const Tensor& x, Tensor& out) = 0;               // 1 / (1 + exp(-x))
  virtual void tanh(const Tensor& x, Tensor& out) = 0;                  // tanh(x)

  // ---- reductions ----------------------------------------------------------
  // out (1x1) = sum(x). Accumulates in double on every backend, so the loss is
  // comparable across backends to float32 rounding of the inputs.
  virtual void sum(const Tensor& x, Tensor& out) = 0;
  // Fused loss of the hand-written workload: diff = a - b, out (1x1) = sum(diff^2).
  virtual void sub_square_sum(const Tensor& a, const Tensor& b, Tensor& diff, Tensor& out) = 0;

  // Copies a 1x1 tensor to the host (synchronises).
  virtual float read_scalar(const Tensor& s) = 0;
  virtual void synchronize() = 0;

  // ---- optional ------------------------------------------------------------
  // Interchangeable GEMM implementations of the same math that `gemm: auto`
  // measures (the CPU backend's Eigen and a BLAS library); empty when there
  // is only one. The runner's `auto`
  // times whole training steps with each and keeps the fastest: a GEMM timed
  // alone misleads when two thread pools contend for the cores.
  virtual std::vector<std::string> gemm_paths() const { return {}; }
  // Switches path; `why` is recorded in describe() (how it was chosen).
  virtual void set_gemm_path(const std::string& path, const std::string& why) {
    (void)path;
    (void)why;
  }
  // Device timer of one run (DESIGN §3: "device timers bracket the steps
  // alone"). start_device_timer() marks the start on the device's queue; call
  // it right before the first step. stop_device_timer_s() marks the end right
  // after the last step, waits for that mark only (not for the host's
  // bookkeeping, nor for unrelated work) and returns the device time between
  // the two marks in seconds. Whatever the host does before start or after
  // stop is not counted. Returns -1 when the backend has no device timer; a
  // backend that has one throws std::logic_error for a stop without a start.
  virtual void start_device_timer() {}
  virtual double stop_device_timer_s() { return -1.0; }

  // The achievable FLOP rate (DESIGN §2.3 fma_peak): every worker of the
  // backend (each CPU thread of its team, every resident GPU thread) runs
  // `rounds` rounds of independent, register-resident FMA chains, enough of
  // them to cover the FMA latency on every FMA unit. fma_peak_flop() is the
  // FLOP count of one such call (2 per FMA, known without running);
  // fma_peak() queues it and leaves a value that depends on every chain in
  // `sink` (1x1), so no compiler can drop the work. Backends without a
  // dedicated kernel throw std::logic_error.
  virtual double fma_peak_flop(int64_t rounds) const;
  virtual void fma_peak(int64_t rounds, Tensor& sink);
};

// Shape checks shared by the implementations; they throw std::invalid_argument
// with both shapes in the message.
void check_same_shape(const char* op, const Tensor& a, const Tensor& b);
void check_scalar(const char* op, const Tensor& s);
void check_gemm_shapes(Trans ta, Trans tb, const Tensor& a, const Tensor& b, const Tensor& c);

inline double Backend::fma_peak_flop(int64_t) const { return 0.0; }
inline void Backend::fma_peak(int64_t, Tensor&) {
  throw std::logic_error("fma_peak: the " + name() + " backend has no FMA peak kernel");
}

}  // namespace edp
