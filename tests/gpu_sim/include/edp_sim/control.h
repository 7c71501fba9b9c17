// GPU simulator (EDPBENCH_GPU_SIM): switches and probes for tests and for the
// pool's slack guards. Not a CUDA API; only test builds include it.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace edp_sim {

// The CUDA version the fakes behave as (cudaRuntimeGetVersion encoding:
// 10020, 11080, 12000, ...). Initial value: $EDPBENCH_SIM_CUDA_VERSION, else
// 11080. Changing it resets the simulated device (contexts, memory, streams).
void set_cuda_version(int version);
int cuda_version();
// Everything back to a fresh process: no context, no allocation, no stream.
void reset_all();

// Guards [block + used, block + size) of a live allocation: filled with a
// canary now, checked after every operation the device executes and when the
// guard is replaced or the block freed; a change aborts with a report naming
// the last operation. For the pool's rounding slack (device_pool.cpp).
void guard_slack(void* block, std::size_t used, std::size_t size);

// Live allocations and their bytes (tests of the pool and of the fakes).
std::size_t live_allocations();
std::size_t live_bytes();
// Operations queued on streams and not executed yet.
std::size_t pending_operations();
// Every runtime and driver API call that returned an error since the last
// clear, as compute-sanitizer's memcheck reports them by default
// (--report-api-errors explicit: "Program hit <error> on CUDA API call to
// ..."). A real GPU run under memcheck counts each as an error, so code that
// uses an error as an ordinary branch shows up there; the simulator lists them
// so a test can ask for none.
struct ApiError {
  std::string api;  // "runtime" or the driver entry point
  int code = 0;     // cudaError_t or CUresult
};
std::vector<ApiError> api_errors();
void clear_api_errors();

// Name of the last operation the device executed ("kernel map1_kernel<ReluOp>",
// "cublasSgemm", ...).
std::string last_operation();

}  // namespace edp_sim
