// What the two backends whose tensors live in host memory (reference, cpu)
// share: pooled allocation, copies in and out, scalar read-back, and a
// synchronize() with nothing to wait for.
#pragma once

#include <cstring>
#include <memory>

#include "workloads/backend.h"
#include "workloads/host_pool.h"

namespace edp {

// Defined in cpu_backend.cpp: FTZ/DAZ for the calling thread.
void enable_flush_to_zero();

class HostBackend : public Backend {
 public:
  // DESIGN §2: flush-to-zero and denormals-are-zero on the CPU, for every
  // host backend alike, so a backend's timing never depends on which one ran
  // first in the sweep.
  HostBackend() { enable_flush_to_zero(); }
  Tensor empty(int64_t rows, int64_t cols) override { return pool_->allocate(rows, cols); }
  void upload(const float* host, Tensor& t) override {
    std::memcpy(t.data(), host, sizeof(float) * static_cast<size_t>(t.numel()));
  }
  void download(const Tensor& t, float* host) override {
    std::memcpy(host, t.data(), sizeof(float) * static_cast<size_t>(t.numel()));
  }
  float read_scalar(const Tensor& s) override {
    check_scalar("read_scalar", s);
    return s.data()[0];
  }
  void synchronize() override {}

 private:
  std::shared_ptr<HostPool> pool_ = HostPool::create();
};

}  // namespace edp
