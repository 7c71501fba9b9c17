// A caching allocator of device memory for one backend.
//
// The autograd workload makes fresh temporaries every iteration; cudaMalloc and
// cudaFree synchronise the device and cost far more than the kernels on a TX2,
// so freed blocks go back to a free list keyed by (rounded) size and are
// handed out again. Blocks come from cudaMalloc only: managed and zero-copy
// memory are uncached or migrate on Tegra and would distort the timings.
//
// Reuse is safe without events because the backend queues all work on one
// stream: a block returned while a kernel still reads it can only be handed to
// work queued behind that kernel.
//
// Lifetime: each Tensor's deleter holds a shared_ptr to the pool, so a tensor
// may outlive its backend. The backend calls close() when it is destroyed;
// from then on cached blocks are gone and returned blocks are freed at once.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace edp {
namespace cuda {

class DevicePool : public std::enable_shared_from_this<DevicePool> {
 public:
  struct Stats {
    std::size_t bytes_in_use = 0;          // handed out, not yet returned
    std::size_t bytes_cached = 0;          // in the free lists
    std::uint64_t device_allocations = 0;  // cudaMalloc calls that succeeded
    std::uint64_t reuses = 0;              // requests served from a free list
    // The most the pool ever held from the device (in use and cached): what
    // the memory check's device part must cover (issue 33).
    std::size_t bytes_high_water = 0;
  };

  // Use through std::make_shared: allocate() needs shared_from_this().
  // `device_use` is kept until the pool is gone (the last tensor included).
  explicit DevicePool(int device, std::shared_ptr<const void> device_use = nullptr);
  ~DevicePool();
  DevicePool(const DevicePool&) = delete;
  DevicePool& operator=(const DevicePool&) = delete;

  // At least `bytes` of device memory (256-byte aligned, as cudaMalloc gives).
  // On out-of-memory it frees the cache and retries once; then it throws
  // CudaError. The returned pointer's deleter gives the block back.
  std::shared_ptr<float> allocate(std::size_t bytes);

  // cudaFree every cached block (waits for the device first).
  void release_cached();
  // release_cached(), and free blocks returned later immediately.
  void close();

  Stats stats() const;

  // Blocks are kept per size class: multiples of 512 bytes.
  static std::size_t round_up(std::size_t bytes);

 private:
  void give_back(void* block, std::size_t bytes) noexcept;
  void free_all_cached_locked() noexcept;

  int device_;
  std::shared_ptr<const void> device_use_;  // released after the destructor's cudaFree calls
  mutable std::mutex mutex_;
  bool closed_ = false;
  std::unordered_map<std::size_t, std::vector<void*>> free_;
  Stats stats_;
};

}  // namespace cuda
}  // namespace edp
