// A caching allocator for host tensors, shared by the reference and CPU
// backends. Freed blocks go back to a free list keyed by size, so a training
// step that creates the same temporaries every iteration stops paying for
// mmap/munmap and first-touch page faults after the first iteration (glibc
// serves blocks this large with mmap, which returns them to the kernel).
#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "workloads/tensor.h"

namespace edp {

class HostPool : public std::enable_shared_from_this<HostPool> {
 public:
  static std::shared_ptr<HostPool> create() { return std::shared_ptr<HostPool>(new HostPool()); }
  ~HostPool();
  Tensor allocate(int64_t rows, int64_t cols);

 private:
  HostPool() = default;
  void release(float* p, size_t bytes);
  mutable std::mutex mu_;
  std::multimap<size_t, float*> free_;
};

}  // namespace edp
