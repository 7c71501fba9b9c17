#include "workloads/host_pool.h"

#include <sys/mman.h>

#include <cstdlib>
#include <new>

namespace edp {

namespace {
constexpr size_t kAlignment = 64;  // a cache line, and an AVX-512 vector
// From 4 MiB on, a buffer is 2 MiB-aligned and asks for transparent huge
// pages (where THP is "madvise", the default of Debian and of L4T): a 256
// MiB array in 4 KiB pages is 65536 TLB entries, so a streaming kernel walks
// the page tables every 4 KiB. NumPy does the same from 4 MiB
// (numpy/core/src/multiarray/alloc.c, madvise(MADV_HUGEPAGE)), so the ops
// study compares like with like. Huge-page size 2 MiB: x86-64 and AArch64
// with 4 KiB granules (the Jetson kernels).
constexpr size_t kHugeMin = size_t{4} << 20;
constexpr size_t kHugeAlignment = size_t{2} << 20;

size_t alignment_for(size_t bytes) { return bytes >= kHugeMin ? kHugeAlignment : kAlignment; }
size_t round_up(size_t bytes) {
  const size_t a = alignment_for(bytes);
  return (bytes + a - 1) / a * a;
}
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
    p = static_cast<float*>(std::aligned_alloc(alignment_for(bytes), bytes));
    if (!p) throw std::bad_alloc();
#if defined(MADV_HUGEPAGE)
    // Advice only: a kernel without THP refuses it, and the pages stay small.
    if (bytes >= kHugeMin) (void)::madvise(p, bytes, MADV_HUGEPAGE);
#endif
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
