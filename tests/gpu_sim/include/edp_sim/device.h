// GPU simulator (EDPBENCH_GPU_SIM): what a .cu file compiled as C++ by the
// host compiler needs in place of nvcc's device language, after the CUDA C++
// Programming Guide: the function qualifiers, the built-in variables
// (threadIdx, blockIdx, blockDim, gridDim, warpSize), __syncthreads(), the
// warp shuffle and vote functions (mask semantics of CUDA 9+), atomicAdd, and
// edp_sim::launch, which src/workloads/cuda/launch.h calls in place of
// kernel<<<grid, block, shared, stream>>>(args).
//
// The SIMT rules are enforced by the grid runner (lib/simt_block.cpp): every
// thread of a block runs as a fiber, a barrier releases only when every thread
// of the block is waiting at it, a warp collective completes only when every
// lane of its mask has called it with the same mask, several blocks of a
// launch are resident at once and the runner switches between them. What
// CUDA leaves undefined (a barrier some threads never reach, a lane missing
// from the mask, a shuffle reading a lane outside it, two blocks writing one
// global address without an atomic) aborts the process with a report naming
// the kernel; a launch beyond the device limits is an API error
// (cudaErrorInvalidConfiguration from cudaGetLastError), as on a GPU.
//
// C++14, like the .cu files it compiles.
#pragma once

#include <math.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <tuple>
#include <type_traits>
#include <utility>

#include "cuda_runtime_api.h"

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __noinline__
#define __launch_bounds__(...)
// Every __shared__ variable of the program lives in one linker section,
// edp_sim_shared, which stands for the shared memory of the block that runs
// now: the grid runner saves and restores the section's bytes when it
// switches blocks, fills it with NaN bytes (0xff) when a block starts
// (CUDA C++ Programming Guide, "__shared__": the variable "has the lifetime
// of the block" and cannot be initialised in its declaration, so a block
// reads garbage until it writes), and counts its size against the 48 KB of
// shared memory a block may have. GCC's AddressSanitizer leaves globals in a
// named section alone, so the ASan build runs it too.
#define __shared__ static __attribute__((section("edp_sim_shared")))
extern "C" {
// Defined by the linker around the edp_sim_shared section (GNU ld, "Input
// Section Keywords": __start_SECNAME and __stop_SECNAME for a section whose
// name is a C identifier); null when the program declares no __shared__.
extern char __start_edp_sim_shared[] __attribute__((weak, visibility("hidden")));
extern char __stop_edp_sim_shared[] __attribute__((weak, visibility("hidden")));
}

namespace edp_sim {

struct ThreadIndex {
  uint3 thread_idx;
  uint3 block_idx;
  dim3 block_dim;
  dim3 grid_dim;
};

// The indices of the simulated thread running now; aborts outside a kernel.
const ThreadIndex& current_thread();

// __syncthreads() of the running thread.
void syncthreads();

enum class WarpOp { kShflIdx, kShflUp, kShflDown, kShflXor, kBallot, kAny, kAll };
const char* warp_op_name(WarpOp op);

// One warp-collective call of the running lane: waits for every lane in
// `mask`, returns this lane's result (value bits for shuffles, a lane mask
// for ballot, 0/1 for any and all).
std::uint64_t warp_collective(WarpOp op, unsigned mask, std::uint64_t value, int arg, int width);

template <class T>
T shuffle(WarpOp op, unsigned mask, T var, int arg, int width) {
  static_assert(sizeof(T) <= sizeof(std::uint64_t) && std::is_trivially_copyable<T>::value,
                "warp shuffles move 4- and 8-byte values");
  std::uint64_t bits = 0;
  std::memcpy(&bits, &var, sizeof var);
  bits = warp_collective(op, mask, bits, arg, width);
  T out;
  std::memcpy(&out, &bits, sizeof out);
  return out;
}

// The program's __shared__ variables: [begin, end) of the edp_sim_shared section.
struct SharedRegion {
  char* begin = nullptr;
  char* end = nullptr;
  std::size_t bytes() const { return static_cast<std::size_t>(end - begin); }
};
inline SharedRegion program_shared_region() {
  return SharedRegion{__start_edp_sim_shared, __stop_edp_sim_shared};
}

// Queues a grid on `stream` (lib/fake_stream.cpp); `body` runs one thread.
// A launch the device refuses is not queued and sets the thread's last error
// (cudaErrorInvalidConfiguration), as kernel<<<...>>> does.
void enqueue_kernel(const char* name, dim3 grid, dim3 block, std::size_t shared_bytes,
                    cudaStream_t stream, std::function<void()> body, SharedRegion shared);

// atomicAdd's hook: records an atomic write of `bytes` at `address` for the
// race rule and is a point where the runner may switch to another thread or
// block (lib/simt_block.cpp).
void atomic_point(const void* address, std::size_t bytes);

template <class Kernel, class Tuple, std::size_t... I>
void invoke(Kernel kernel, const Tuple& args, std::index_sequence<I...>) {
  kernel(std::get<I>(args)...);
}

// kernel<<<grid, block, shared_bytes, stream>>>(args...): the arguments are
// converted to the kernel's parameter types and copied, as a launch does.
template <class... P, class... A>
void launch(const char* name, void (*kernel)(P...), dim3 grid, dim3 block, std::size_t shared_bytes,
            cudaStream_t stream, A&&... args) {
  static_assert(sizeof...(P) == sizeof...(A), "kernel launched with the wrong argument count");
  std::tuple<std::decay_t<P>...> bound(static_cast<std::decay_t<P>>(std::forward<A>(args))...);
  enqueue_kernel(
      name, grid, block, shared_bytes, stream,
      [kernel, bound]() { invoke(kernel, bound, std::index_sequence_for<P...>{}); },
      program_shared_region());
}

}  // namespace edp_sim

#define threadIdx (::edp_sim::current_thread().thread_idx)
#define blockIdx (::edp_sim::current_thread().block_idx)
#define blockDim (::edp_sim::current_thread().block_dim)
#define gridDim (::edp_sim::current_thread().grid_dim)
#define warpSize 32

inline void __syncthreads() { ::edp_sim::syncthreads(); }

template <class T>
T __shfl_sync(unsigned mask, T var, int src_lane, int width = 32) {
  return ::edp_sim::shuffle(::edp_sim::WarpOp::kShflIdx, mask, var, src_lane, width);
}
template <class T>
T __shfl_up_sync(unsigned mask, T var, unsigned delta, int width = 32) {
  return ::edp_sim::shuffle(::edp_sim::WarpOp::kShflUp, mask, var, static_cast<int>(delta), width);
}
template <class T>
T __shfl_down_sync(unsigned mask, T var, unsigned delta, int width = 32) {
  return ::edp_sim::shuffle(::edp_sim::WarpOp::kShflDown, mask, var, static_cast<int>(delta),
                            width);
}
template <class T>
T __shfl_xor_sync(unsigned mask, T var, int lane_mask, int width = 32) {
  return ::edp_sim::shuffle(::edp_sim::WarpOp::kShflXor, mask, var, lane_mask, width);
}
inline unsigned __ballot_sync(unsigned mask, int predicate) {
  return static_cast<unsigned>(
      ::edp_sim::warp_collective(::edp_sim::WarpOp::kBallot, mask, predicate != 0, 0, 32));
}
inline int __any_sync(unsigned mask, int predicate) {
  return static_cast<int>(
      ::edp_sim::warp_collective(::edp_sim::WarpOp::kAny, mask, predicate != 0, 0, 32));
}
inline int __all_sync(unsigned mask, int predicate) {
  return static_cast<int>(
      ::edp_sim::warp_collective(::edp_sim::WarpOp::kAll, mask, predicate != 0, 0, 32));
}

// The runner may switch threads or blocks at the call (atomic_point), never
// between the read and the write below, so the read-modify-write is atomic
// with respect to every other simulated thread. Not instrumented for the race
// rule's write tracking (lib/write_tracking.cpp): atomic_point records it as
// the atomic write it is.
template <class T>
__attribute__((no_sanitize_thread)) T atomicAdd(T* address, T value) {
  ::edp_sim::atomic_point(address, sizeof(T));
  const T old = *address;
  *address = old + value;
  return old;
}
