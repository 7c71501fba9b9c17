#include "workloads/host_pool.h"

#include <cstdlib>
#include <new>

namespace edp {

namespace {
constexpr size_t kAlignment = 64;  // a cache line, and an AVX-512 vector
size_t round_up(size_t bytes) { return (bytes + kAlignment - 1) / kAlignment * kAlignment; }
}  // namespace

HostPool::~HostPool() {
  for (auto& [bytes, p] : free_) std::free(p);
}

Tensor HostPool::allocate(int64_t rows, int64_t cols) {
  const size_t bytes = round_up(static_cast<size_t>(rows * cols) * sizeof(float) + 1);
  float* p = nullptr;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = free_.find(bytes);
    if (it != free_.end()) {
      p = it->second;
      free_.erase(it);
    }
  }
  if (!p) {
    p = static_cast<float*>(std::aligned_alloc(kAlignment, bytes));
    if (!p) throw std::bad_alloc();
  }
  // The deleter keeps the pool alive for as long as any of its tensors.
  std::shared_ptr<HostPool> self = shared_from_this();
  return Tensor(std::shared_ptr<float>(p, [self, bytes](float* q) { self->release(q, bytes); }),
                rows, cols);
}

void HostPool::release(float* p, size_t bytes) {
  std::lock_guard<std::mutex> lock(mu_);
  free_.emplace(bytes, p);
}

}  // namespace edp
