// GPU simulator: device memory. An allocation is host memory (256-byte
// aligned, as cudaMalloc guarantees: CUDA Runtime API reference, cudaMalloc)
// registered with its size; it is filled with NaN bytes (0xff) so a read
// before a write shows. Every copy, memset and library operand is checked
// against the allocation it touches.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "cuda_runtime_api.h"

namespace edp_sim {

struct Allocation {
  char* base = nullptr;
  std::size_t bytes = 0;
  int device = 0;
  // The race rule's record of the last launch's stores, one entry per 4
  // bytes (write_tracking.cpp); made at the first tracked store.
  std::shared_ptr<std::vector<std::uint64_t>> shadow;
};

// cudaErrorMemoryAllocation past the device's memory (device_limits.h).
cudaError_t allocate_device(int device, std::size_t bytes, void** out);
// false when `p` is not the start of a live allocation.
bool free_device(void* p);
void free_device_memory(int device);

// The allocation that contains [p, p + bytes), or nullptr (the range is not
// device memory, or crosses the end of its allocation).
const Allocation* allocation_of(const void* p, std::size_t bytes);
// Whether p points into any live allocation.
bool is_device_pointer(const void* p);
// "[p, p+n) lies in no allocation" / "... runs N bytes past the allocation
// [base, base+size)": for diagnostics.
std::string explain_range(const void* p, std::size_t bytes);

std::size_t used_bytes();
std::size_t allocation_count();
// Every live allocation, sorted by base (the entries stay valid until freed).
std::vector<Allocation*> live_allocation_list();

// Slack guards (edp_sim/control.h): checked after each executed operation.
// A guard whose block was handed to a smaller tensor moves down to the new
// tensor's end once every operation queued before the reuse has run
// (`oldest_pending`: the sequence number of the oldest operation still
// queued on any stream; fake_stream.h).
void check_guards(const std::string& after);
void settle_guards(std::uint64_t oldest_pending);

}  // namespace edp_sim
