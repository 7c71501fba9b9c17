// A Backend decorator that forwards every call to the backend it wraps and
// counts them (issue 11 item 5; seed 001 counted SGEMM against batched-SGEMM
// calls): GEMM calls and their FLOPs (2 m n k each), element-wise calls,
// reductions and memory calls. The counts are those of the Backend
// interface: what a program asks for, whichever backend runs it. Each of our
// backends turns one gemm() into one SGEMM (cblas_sgemm, an Eigen product
// or cublasSgemm) and none has a batched GEMM, so batched_gemm stays 0.
#pragma once

#include <cstdint>

#include "workloads/backend.h"

namespace edp {

struct CallCounts {
  int64_t gemm = 0;
  int64_t batched_gemm = 0;  // no Backend call batches GEMMs: always 0
  double gemm_flop = 0;      // sum of 2 m n k over the gemm calls
  // axpy, relu, relu_backward, sub, mul, scale, square, broadcast, add,
  // sigmoid, tanh
  int64_t elementwise = 0;
  int64_t reduction = 0;  // sum, sub_square_sum
  int64_t memory = 0;     // empty, upload, download, fill, copy
  int64_t synchronize = 0;
};

class CountingBackend final : public Backend {
 public:
  explicit CountingBackend(Backend& inner) : inner_(inner) {}

  const CallCounts& counts() const { return counts_; }
  void reset_counts() { counts_ = CallCounts{}; }

  std::string name() const override { return inner_.name(); }
  std::map<std::string, std::string> describe() const override { return inner_.describe(); }

  Tensor empty(int64_t rows, int64_t cols) override;
  void upload(const float* host, Tensor& t) override;
  void download(const Tensor& t, float* host) override;
  void fill(Tensor& t, float value) override;
  void copy(const Tensor& src, Tensor& dst) override;

  void gemm(Trans ta, Trans tb, float alpha, const Tensor& a, const Tensor& b, float beta,
            Tensor& c) override;
  void axpy(float alpha, const Tensor& x, Tensor& y) override;

  void relu(const Tensor& x, Tensor& y) override;
  void relu_backward(const Tensor& grad_y, const Tensor& x, Tensor& grad_x) override;
  void sub(const Tensor& a, const Tensor& b, Tensor& out) override;
  void mul(const Tensor& a, const Tensor& b, Tensor& out) override;
  void scale(const Tensor& x, float alpha, Tensor& out) override;
  void square(const Tensor& x, Tensor& out) override;
  void broadcast(const Tensor& s, Tensor& out) override;
  void add(const Tensor& a, const Tensor& b, Tensor& out) override;
  void sigmoid(const Tensor& x, Tensor& out) override;
  void tanh(const Tensor& x, Tensor& out) override;

  void sum(const Tensor& x, Tensor& out) override;
  void sub_square_sum(const Tensor& a, const Tensor& b, Tensor& diff, Tensor& out) override;

  float read_scalar(const Tensor& s) override { return inner_.read_scalar(s); }
  void synchronize() override {
    ++counts_.synchronize;
    inner_.synchronize();
  }

  std::vector<std::string> gemm_paths() const override { return inner_.gemm_paths(); }
  void set_gemm_path(const std::string& path, const std::string& why) override {
    inner_.set_gemm_path(path, why);
  }
  void start_device_timer() override { inner_.start_device_timer(); }
  double stop_device_timer_s() override { return inner_.stop_device_timer_s(); }
  double fma_peak_flop(int64_t rounds) const override { return inner_.fma_peak_flop(rounds); }
  void fma_peak(int64_t rounds, Tensor& sink) override { inner_.fma_peak(rounds, sink); }

 private:
  Backend& inner_;
  CallCounts counts_;
};

}  // namespace edp
