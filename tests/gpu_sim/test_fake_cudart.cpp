// The fake CUDA runtime and driver on their own (tests/gpu_sim/lib), against
// what the CUDA Runtime and Driver API references document.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "cuda.h"
#include "cuda_runtime_api.h"
#include "edp_sim/control.h"
#include "edp_sim/device.h"
#include "sim_test_support.h"

using edp_sim_test::DeviceFloats;
using edp_sim_test::run_in_child;

namespace {

// Every test starts from a fresh simulated process with CUDA 11.8.
struct Fresh {
  explicit Fresh(int version = 11080) { edp_sim::set_cuda_version(version); }
  ~Fresh() { edp_sim::set_cuda_version(11080); }
};

__global__ void add_one_kernel(float* x, int n) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i < n) x[i] += 1.0f;
}

__global__ void overrun_kernel(float* x, int n) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i <= n) x[i] = 0.0f;  // one past the end
}

}  // namespace

TEST_CASE("fake cudart: new allocations hold NaN and copies are checked against them",
          "[gpu_sim][cudart]") {
  Fresh fresh;
  void* p = nullptr;
  REQUIRE(cudaMalloc(&p, 40) == cudaSuccess);
  CHECK(reinterpret_cast<std::uintptr_t>(p) % 256 == 0);  // cudaMalloc's alignment
  std::vector<float> host(10, 0.0f);
  REQUIRE(cudaMemcpy(host.data(), p, 40, cudaMemcpyDeviceToHost) == cudaSuccess);
  for (float v : host) CHECK(std::isnan(v));
  // One byte past the allocation, in either direction of a copy, and a memset.
  CHECK(cudaMemcpy(host.data(), p, 41, cudaMemcpyDeviceToHost) == cudaErrorInvalidValue);
  CHECK(cudaGetLastError() == cudaErrorInvalidValue);
  CHECK(cudaGetLastError() == cudaSuccess);  // taken
  CHECK(cudaMemcpy(static_cast<char*>(p) + 4, host.data(), 40, cudaMemcpyHostToDevice) ==
        cudaErrorInvalidValue);
  CHECK(cudaMemsetAsync(static_cast<char*>(p) + 1, 0, 40, nullptr) == cudaErrorInvalidValue);
  CHECK(cudaMemset(host.data(), 0, 4) == cudaErrorInvalidValue);  // not device memory
  // The kind must match the pointers.
  CHECK(cudaMemcpy(p, host.data(), 40, cudaMemcpyDeviceToHost) == cudaErrorInvalidValue);
  CHECK(cudaMemcpy(host.data(), p, 40, cudaMemcpyDefault) == cudaSuccess);
  CHECK(cudaFree(static_cast<char*>(p) + 4) == cudaErrorInvalidValue);
  CHECK(cudaFree(p) == cudaSuccess);
  CHECK(cudaFree(p) == cudaErrorInvalidValue);  // twice
  CHECK(cudaFree(nullptr) == cudaSuccess);
  void* huge = nullptr;
  CHECK(cudaMalloc(&huge, std::size_t{1} << 40) == cudaErrorMemoryAllocation);
  CHECK(edp_sim::live_allocations() == 0);
}

TEST_CASE("fake cudart: work runs when the host synchronises, in stream order",
          "[gpu_sim][cudart]") {
  Fresh fresh;
  cudaStream_t s = nullptr;
  REQUIRE(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) == cudaSuccess);
  CHECK(cudaStreamCreateWithFlags(&s, 0x10) == cudaErrorInvalidValue);
  DeviceFloats x(64);
  std::vector<float> host(64, 0.0f);
  REQUIRE(cudaMemcpyAsync(x.get(), host.data(), 256, cudaMemcpyHostToDevice, s) == cudaSuccess);
  host.assign(64, 5.0f);  // pageable source: staged at the call, so this is not copied
  ::edp_sim::launch("add_one_kernel", add_one_kernel, 1, 64, 0, s, x.get(), 64);
  CHECK(edp_sim::pending_operations() == 2);

  cudaEvent_t start = nullptr, stop = nullptr, untimed = nullptr;
  REQUIRE(cudaEventCreate(&start) == cudaSuccess);
  REQUIRE(cudaEventCreateWithFlags(&stop, cudaEventBlockingSync) == cudaSuccess);
  REQUIRE(cudaEventCreateWithFlags(&untimed, cudaEventDisableTiming) == cudaSuccess);
  CHECK(cudaEventCreateWithFlags(&untimed, cudaEventInterprocess) == cudaErrorInvalidValue);
  float ms = -1.0f;
  CHECK(cudaEventElapsedTime(&ms, start, stop) == cudaErrorInvalidResourceHandle);  // unrecorded
  CHECK(cudaEventSynchronize(stop) == cudaSuccess);  // never recorded: returns at once
  REQUIRE(cudaEventRecord(start, s) == cudaSuccess);
  ::edp_sim::launch("add_one_kernel", add_one_kernel, 1, 64, 0, s, x.get(), 64);
  REQUIRE(cudaEventRecord(stop, s) == cudaSuccess);
  REQUIRE(cudaEventRecord(untimed, s) == cudaSuccess);
  // Not synchronised: the stop mark has not been reached.
  CHECK(cudaEventQuery(stop) == cudaErrorNotReady);
  CHECK(cudaEventElapsedTime(&ms, start, stop) == cudaErrorNotReady);
  // A non-blocking stream does not wait for the legacy stream's sync copy.
  std::vector<float> seen(64, -1.0f);
  REQUIRE(cudaMemcpy(seen.data(), x.get(), 256, cudaMemcpyDeviceToHost) == cudaSuccess);
  CHECK(std::isnan(seen[0]));  // nothing of stream s has run
  REQUIRE(cudaEventSynchronize(stop) == cudaSuccess);
  CHECK(cudaEventElapsedTime(&ms, start, stop) == cudaSuccess);
  CHECK(ms >= 0.0f);
  CHECK(cudaEventElapsedTime(&ms, start, untimed) == cudaErrorInvalidResourceHandle);
  // A copy to pageable host memory returns once it is complete.
  REQUIRE(cudaMemcpyAsync(seen.data(), x.get(), 256, cudaMemcpyDeviceToHost, s) == cudaSuccess);
  CHECK(seen[0] == 2.0f);
  CHECK(seen[63] == 2.0f);
  CHECK(edp_sim::pending_operations() == 0);
  CHECK(cudaEventDestroy(start) == cudaSuccess);
  CHECK(cudaEventDestroy(start) == cudaErrorInvalidResourceHandle);
  CHECK(cudaEventDestroy(stop) == cudaSuccess);
  CHECK(cudaEventDestroy(untimed) == cudaSuccess);
  CHECK(cudaStreamDestroy(s) == cudaSuccess);
  CHECK(cudaStreamSynchronize(s) == cudaErrorInvalidResourceHandle);
}

TEST_CASE("fake cudart: a pageable upload synchronises its stream and stays queued itself",
          "[gpu_sim][cudart]") {
  // CUDA Runtime API, "API synchronization behavior", asynchronous memcpy: "If
  // pageable memory must first be staged to pinned memory, the driver may
  // synchronize with the stream and stage the copy into pinned memory."
  Fresh fresh;
  cudaStream_t s = nullptr;
  REQUIRE(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) == cudaSuccess);
  DeviceFloats x(64);
  std::vector<float> host(64, 1.0f);
  REQUIRE(cudaMemsetAsync(x.get(), 0, 256, s) == cudaSuccess);
  ::edp_sim::launch("add_one_kernel", add_one_kernel, 1, 64, 0, s, x.get(), 64);
  CHECK(edp_sim::pending_operations() == 2);
  REQUIRE(cudaMemcpyAsync(x.get(), host.data(), 256, cudaMemcpyHostToDevice, s) == cudaSuccess);
  CHECK(edp_sim::pending_operations() == 1);  // the memset and the kernel ran; the copy waits
  host.assign(64, 9.0f);                      // staged at the call: not what is copied
  std::vector<float> seen(64, 0.0f);
  REQUIRE(cudaMemcpyAsync(seen.data(), x.get(), 256, cudaMemcpyDeviceToHost, s) == cudaSuccess);
  CHECK(seen[0] == 1.0f);
  CHECK(seen[63] == 1.0f);
  CHECK(cudaStreamDestroy(s) == cudaSuccess);
}

TEST_CASE("fake cudart and driver: primary context and flags per CUDA version",
          "[gpu_sim][cudart]") {
  auto state = [] {
    CUdevice dev = 0;
    REQUIRE(cuDeviceGet(&dev, 0) == CUDA_SUCCESS);
    unsigned flags = 0;
    int active = 0;
    REQUIRE(cuDevicePrimaryCtxGetState(dev, &flags, &active) == CUDA_SUCCESS);
    return std::make_pair(active != 0, flags);
  };
  REQUIRE(cuInit(0) == CUDA_SUCCESS);
  CHECK(cuInit(1) == CUDA_ERROR_INVALID_VALUE);
  CUdevice dev = 0;
  CHECK(cuDeviceGet(&dev, 1) == CUDA_ERROR_INVALID_DEVICE);

  SECTION("CUDA 10.2: flags only before the context exists") {
    Fresh fresh(10020);
    REQUIRE(cudaSetDevice(0) == cudaSuccess);
    CHECK_FALSE(state().first);  // cudaSetDevice creates nothing before 12.0
    REQUIRE(cudaSetDeviceFlags(cudaDeviceScheduleSpin) == cudaSuccess);
    CHECK_FALSE(state().first);
    REQUIRE(cudaFree(nullptr) == cudaSuccess);
    CHECK(state() == std::make_pair(true, 1u));
    CHECK(cudaSetDeviceFlags(cudaDeviceScheduleBlockingSync) == cudaErrorSetOnActiveProcess);
    CHECK(cuDevicePrimaryCtxSetFlags(0, CU_CTX_SCHED_BLOCKING_SYNC) ==
          CUDA_ERROR_PRIMARY_CONTEXT_ACTIVE);
    unsigned flags = 0;
    REQUIRE(cudaGetDeviceFlags(&flags) == cudaSuccess);
    CHECK((flags & cudaDeviceScheduleMask) == cudaDeviceScheduleSpin);
    REQUIRE(cudaDeviceReset() == cudaSuccess);
    CHECK_FALSE(state().first);
    CHECK(cuDevicePrimaryCtxSetFlags(0, CU_CTX_SCHED_BLOCKING_SYNC) == CUDA_SUCCESS);
    REQUIRE(cudaFree(nullptr) == cudaSuccess);
    CHECK(state() == std::make_pair(true, 4u));
  }
  SECTION("CUDA 11.8: cudaSetDeviceFlags initialises the device, or overwrites live flags") {
    Fresh fresh(11080);
    REQUIRE(cudaSetDevice(0) == cudaSuccess);
    CHECK_FALSE(state().first);
    REQUIRE(cudaSetDeviceFlags(cudaDeviceScheduleYield) == cudaSuccess);
    CHECK(state() == std::make_pair(true, 2u));
    REQUIRE(cudaSetDeviceFlags(cudaDeviceScheduleBlockingSync) == cudaSuccess);
    CHECK(state() == std::make_pair(true, 4u));
    // The 10.2 entry point still refuses the live context (as the driver of
    // CUDA 13 did on an H200); the _v2 one, CUDA 11's, overwrites its flags.
    CHECK(cuDevicePrimaryCtxSetFlags(0, CU_CTX_SCHED_SPIN) == CUDA_ERROR_PRIMARY_CONTEXT_ACTIVE);
    CHECK(state() == std::make_pair(true, 4u));
    CHECK(cuDevicePrimaryCtxSetFlags_v2(0, CU_CTX_SCHED_SPIN) == CUDA_SUCCESS);
    unsigned flags = 0;
    REQUIRE(cudaGetDeviceFlags(&flags) == cudaSuccess);
    CHECK((flags & cudaDeviceScheduleMask) == cudaDeviceScheduleSpin);
    CHECK(cudaSetDeviceFlags(0x3) == cudaErrorInvalidValue);  // spin | yield
    CHECK(cuDevicePrimaryCtxSetFlags(0, 0x3) == CUDA_ERROR_INVALID_VALUE);
  }
  SECTION("CUDA 12: cudaSetDevice creates the context; the driver sets flags before it") {
    Fresh fresh(12000);
    REQUIRE(cuDevicePrimaryCtxSetFlags(0, CU_CTX_SCHED_BLOCKING_SYNC) == CUDA_SUCCESS);
    CHECK_FALSE(state().first);
    REQUIRE(cudaSetDevice(0) == cudaSuccess);
    CHECK(state() == std::make_pair(true, 4u));
    int v = 0;
    REQUIRE(cudaRuntimeGetVersion(&v) == cudaSuccess);
    CHECK(v == 12000);
  }
}

TEST_CASE("fake cudart: the pool's slack guard catches a write past a tensor",
          "[gpu_sim][cudart]") {
  Fresh fresh;
  const auto r = run_in_child([] {
    void* block = nullptr;
    (void)cudaMalloc(&block, 512);
    edp_sim::guard_slack(block, 40, 512);  // a 10-float tensor in a 512-byte block
    ::edp_sim::launch("overrun_kernel", overrun_kernel, 1, 32, 0, nullptr,
                      static_cast<float*>(block), 10);
    (void)cudaDeviceSynchronize();
  });
  INFO(r.err);
  CHECK(r.aborted);
  CHECK(r.err.find("kernel overrun_kernel wrote past the end of a tensor") != std::string::npos);
  // Within bounds, nothing is reported.
  const auto ok = run_in_child([] {
    void* block = nullptr;
    (void)cudaMalloc(&block, 512);
    edp_sim::guard_slack(block, 44, 512);
    ::edp_sim::launch("overrun_kernel", overrun_kernel, 1, 32, 0, nullptr,
                      static_cast<float*>(block), 10);
    (void)cudaDeviceSynchronize();
  });
  INFO(ok.err);
  CHECK(ok.exit_code == 0);
}

TEST_CASE("fake cudart: a reused pool block is not synchronised, its guard follows the queue",
          "[gpu_sim][cudart]") {
  // The pool hands a freed block out again without synchronising
  // (device_pool.cpp), so the guard may not either: work queued for the old,
  // larger tensor still runs and may write up to its end; once it has, the
  // guard moves down to the new tensor's end.
  Fresh fresh;
  const auto r = run_in_child([] {
    void* block = nullptr;
    (void)cudaMalloc(&block, 512);
    float* f = static_cast<float*>(block);
    edp_sim::guard_slack(block, 400, 512);  // a 100-float tensor
    ::edp_sim::launch("add_one_kernel", add_one_kernel, 1, 128, 0, nullptr, f, 100);
    edp_sim::guard_slack(block, 40, 512);  // reused by a 10-float tensor: no synchronisation
    if (edp_sim::pending_operations() != 1) std::_Exit(10);
    (void)cudaDeviceSynchronize();  // the old tensor's kernel writes 100 floats: allowed
    ::edp_sim::launch("overrun_kernel", overrun_kernel, 1, 32, 0, nullptr, f, 10);
    (void)cudaDeviceSynchronize();  // writes float 10: past the new tensor
    std::_Exit(11);
  });
  INFO(r.err);
  CHECK(r.exit_code == -1);
  CHECK(r.aborted);
  CHECK(r.err.find("kernel overrun_kernel wrote past the end of a tensor: byte 0 after the 40 "
                   "used bytes") != std::string::npos);
}
