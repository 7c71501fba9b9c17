// GPU simulator (EDPBENCH_GPU_SIM): switches and probes for tests and for the
// pool's slack guards. Not a CUDA API; only test builds include it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "vector_types.h"

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

// ---- faults --------------------------------------------------------------------
// Makes calls of `call` fail with `code` (the call's own status type:
// cudaError_t, cublasStatus_t or cudnnStatus_t), `count` times after `skip`
// successful ones, so that error paths can run without a broken GPU. `call` is
// an entry point's name ("cudaMalloc", "cudaMemcpyAsync", "cublasSgemm",
// "cudnnActivationForward", ...) or "launch:<kernel>" for a kernel launch, by
// the name EDP_LAUNCH gives it ("launch:map1_kernel<Op>"); a trailing '*'
// matches any suffix ("launch:*", "launch:partial_*"). An injected failure is
// what the real call returns for it: the status, the thread's last error for
// runtime calls and launches, and an entry in api_errors(). Nothing is done
// (no allocation, no queued work).
void inject_fault(const std::string& call, int code, int count = 1, int skip = 0);
void clear_faults();
// Injected failures not yet delivered.
int pending_faults();

// ---- launches ----------------------------------------------------------------------
// Why the simulated device refuses a launch of `grid` x `block` with
// `static_shared` bytes of __shared__ variables and `dynamic_shared` bytes of
// dynamic shared memory, or "" when it accepts it (device_limits.h). A
// refused launch is cudaErrorInvalidConfiguration.
std::string launch_problem(dim3 grid, dim3 block, std::size_t static_shared,
                           std::size_t dynamic_shared);
// Blocks of `threads_per_block` threads the simulated device keeps resident
// at once (its SMs times the blocks one SM holds): the grid runner's
// interleaving width.
int resident_blocks_for(unsigned threads_per_block);
// Whether this build's kernels report two blocks storing to one address in a
// launch (lib/write_tracking.h; off in sanitizer builds).
bool write_tracking_instrumented();
// The seed of the grid runner's choices (which resident block runs next, and
// when it is switched out): $EDPBENCH_SIM_SEED, else 1. The i-th grid run
// since the seed was set uses a generator seeded from (seed, i), so a process
// that runs the same work with the same seed runs the same schedule, and a
// report that names both reproduces.
void set_schedule_seed(std::uint64_t seed);
std::uint64_t schedule_seed();

// Name of the last operation the device executed ("kernel map1_kernel<ReluOp>",
// "cublasSgemm", ...).
std::string last_operation();

}  // namespace edp_sim
