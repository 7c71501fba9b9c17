// Caching device allocator (see device_pool.h).
#include "workloads/cuda/device_pool.h"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <string>
#include <utility>

#include "workloads/cuda/cuda_check.h"
#include "workloads/cuda/device_state.h"

#if EDPBENCH_GPU_SIM
#include "edp_sim/control.h"
#endif

namespace edp {
namespace cuda {

namespace {
constexpr std::size_t kGranule = 512;

// Makes `device` current for the calling thread for the scope, so a tensor
// dropped on another thread, or with another device current, is freed on the
// right one.
class DeviceScope {
 public:
  explicit DeviceScope(int device) {
    if (cudaGetDevice(&previous_) == cudaSuccess && previous_ != device &&
        cudaSetDevice(device) == cudaSuccess) {
      restore_ = true;
    }
  }
  // Not a plain cudaSetDevice(previous_): on CUDA 12+ that would create the
  // previous device's context if nothing had made it yet.
  ~DeviceScope() {
    if (restore_) restore_device(previous_);
  }
  DeviceScope(const DeviceScope&) = delete;
  DeviceScope& operator=(const DeviceScope&) = delete;

 private:
  int previous_ = 0;
  bool restore_ = false;
};
}  // namespace

std::size_t DevicePool::round_up(std::size_t bytes) {
  if (bytes == 0) bytes = 1;  // a Tensor with no elements still needs a distinct address
  return (bytes + kGranule - 1) / kGranule * kGranule;
}

DevicePool::DevicePool(int device, std::shared_ptr<const void> device_use)
    : device_(device), device_use_(std::move(device_use)) {}

DevicePool::~DevicePool() {
  std::lock_guard<std::mutex> lock(mutex_);
  free_all_cached_locked();
}

std::shared_ptr<float> DevicePool::allocate(std::size_t bytes) {
  const std::size_t size = round_up(bytes);
  void* block = nullptr;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = free_.find(size);
    if (it != free_.end() && !it->second.empty()) {
      block = it->second.back();
      it->second.pop_back();
      stats_.bytes_cached -= size;
      ++stats_.reuses;
    }
  }
  if (block == nullptr) {
    DeviceScope scope(device_);
    cudaError_t status = cudaMalloc(&block, size);
    if (status == cudaErrorMemoryAllocation) {
      (void)cudaGetLastError();
      release_cached();
      status = cudaMalloc(&block, size);
    }
    check(status, ("cudaMalloc(" + std::to_string(size) + " bytes)").c_str(), __FILE__, __LINE__);
    std::lock_guard<std::mutex> lock(mutex_);
    ++stats_.device_allocations;
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stats_.bytes_in_use += size;
    stats_.bytes_high_water =
        std::max(stats_.bytes_high_water, stats_.bytes_in_use + stats_.bytes_cached);
  }
#if EDPBENCH_GPU_SIM
  // Test builds: the rounding slack past `bytes` is poisoned and checked after
  // every device operation, so a kernel writing past a tensor's end fails
  // instead of landing unseen in the slack.
  edp_sim::guard_slack(block, bytes, size);
#endif
  auto self = shared_from_this();
  // If the control block cannot be allocated, shared_ptr calls the deleter, so
  // the block is not lost.
  return std::shared_ptr<float>(static_cast<float*>(block),
                                [self, size](float* p) { self->give_back(p, size); });
}

void DevicePool::give_back(void* block, std::size_t size) noexcept {
  std::lock_guard<std::mutex> lock(mutex_);
  stats_.bytes_in_use -= size;
  if (closed_) {
    DeviceScope scope(device_);
    (void)cudaFree(block);  // errors at process exit (driver unloading) are harmless
    return;
  }
  try {
    free_[size].push_back(block);
    stats_.bytes_cached += size;
  } catch (...) {  // no memory for the list entry: free the block instead
    DeviceScope scope(device_);
    (void)cudaFree(block);
  }
}

void DevicePool::release_cached() {
  std::lock_guard<std::mutex> lock(mutex_);
  free_all_cached_locked();
}

void DevicePool::close() {
  std::lock_guard<std::mutex> lock(mutex_);
  closed_ = true;
  free_all_cached_locked();
}

void DevicePool::free_all_cached_locked() noexcept {
  if (stats_.bytes_cached == 0) {
    free_.clear();
    return;
  }
  DeviceScope scope(device_);
  // Cached blocks may still be read by queued work on the backend's stream.
  (void)cudaDeviceSynchronize();
  for (auto& entry : free_) {
    for (void* block : entry.second) (void)cudaFree(block);
  }
  free_.clear();
  stats_.bytes_cached = 0;
}

DevicePool::Stats DevicePool::stats() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return stats_;
}

}  // namespace cuda
}  // namespace edp
