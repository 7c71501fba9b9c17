// The race rule for global memory (tests/gpu_sim/lib/write_tracking.h): two
// blocks of one launch storing to one address without atomics abort with a
// report; atomics, and blocks keeping to their own elements, do not. This file
// is compiled like the kernel sources (EDP_SIM_KERNEL_OPTIONS, tests/CMakeLists.txt),
// so its kernels' stores are seen.
#include <catch2/catch.hpp>

#include <string>

#include "edp_sim/control.h"
#include "edp_sim/device.h"
#include "sim_test_support.h"

using edp_sim_test::DeviceFloats;
using edp_sim_test::run_in_child;

namespace {

// What fma_peak's sink would be with a plain += in place of its atomicAdd.
__global__ void plain_sum_kernel(float* sink) {
  if (threadIdx.x == 0) *sink += 1.0f;
}

__global__ void atomic_sum_kernel(float* sink) {
  if (threadIdx.x == 0) atomicAdd(sink, 1.0f);
}

// Block 0 adds atomically, the others store plainly.
__global__ void mixed_sum_kernel(float* sink) {
  if (threadIdx.x != 0) return;
  if (blockIdx.x == 0) {
    atomicAdd(sink, 1.0f);
  } else {
    *sink = 2.0f;
  }
}

// A grid-stride loop whose stride forgot gridDim.x: every block walks the
// whole array, storing the same values the others store.
__global__ void stride_without_grid_kernel(float* out, int n) {
  for (int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x); i < n;
       i += static_cast<int>(blockDim.x)) {
    out[i] = 1.0f;
  }
}

__global__ void own_elements_kernel(float* out, int n) {
  const int stride = static_cast<int>(blockDim.x * gridDim.x);
  for (int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x); i < n; i += stride) {
    out[i] = static_cast<float>(i);
  }
}

// Thread 0 of each block stores its partial, then thread 0 of block 0 ...
// nothing more: each block owns partials[blockIdx.x].
__global__ void per_block_partial_kernel(float* partials) {
  __shared__ float total;
  if (threadIdx.x == 0) total = 0.0f;
  __syncthreads();
  atomicAdd(&total, 1.0f);
  __syncthreads();
  if (threadIdx.x == 0) partials[blockIdx.x] = total;
}

template <class Kernel, class... Args>
void launch(const char* name, Kernel kernel, int blocks, int threads, Args... args) {
  ::edp_sim::launch(name, kernel, blocks, threads, 0, nullptr, args...);
  REQUIRE(cudaGetLastError() == cudaSuccess);
}

}  // namespace

TEST_CASE("sim: two blocks storing to one address without an atomic abort with a report",
          "[gpu_sim][simt][race]") {
  if (!edp_sim::write_tracking_instrumented()) {
    WARN(
        "skipped: the race rule is off in this build (a sanitizer build cannot instrument the "
        "kernels' stores)");
    return;
  }
  edp_sim::reset_all();
  SECTION("a plain += from every block, as fma_peak without its atomicAdd") {
    const auto r = run_in_child([] {
      DeviceFloats sink(1);
      (void)cudaMemset(sink.get(), 0, 4);
      ::edp_sim::launch("plain_sum_kernel", plain_sum_kernel, 4, 32, 0, nullptr, sink.get());
      (void)cudaDeviceSynchronize();
    });
    INFO(r.err);
    CHECK(r.aborted);
    CHECK(r.err.find("kernel plain_sum_kernel: block (") != std::string::npos);
    CHECK(r.err.find("stored without an atomic") != std::string::npos);
    CHECK(r.err.find("byte 0 of the allocation") != std::string::npos);
    CHECK(r.err.find("schedule seed") != std::string::npos);
  }
  SECTION("an atomic against another block's plain store") {
    const auto r = run_in_child([] {
      DeviceFloats sink(1);
      (void)cudaMemset(sink.get(), 0, 4);
      ::edp_sim::launch("mixed_sum_kernel", mixed_sum_kernel, 3, 32, 0, nullptr, sink.get());
      (void)cudaDeviceSynchronize();
    });
    INFO(r.err);
    CHECK(r.aborted);
    CHECK(r.err.find("kernel mixed_sum_kernel") != std::string::npos);
  }
  SECTION("the same value stored by every block (a stride without gridDim.x)") {
    const auto r = run_in_child([] {
      DeviceFloats out(1000);
      ::edp_sim::launch("stride_without_grid_kernel", stride_without_grid_kernel, 4, 64, 0, nullptr,
                        out.get(), 1000);
      (void)cudaDeviceSynchronize();
    });
    INFO(r.err);
    CHECK(r.aborted);
    CHECK(r.err.find("kernel stride_without_grid_kernel") != std::string::npos);
  }
}

TEST_CASE("sim: atomics and blocks that keep to their own elements are no race",
          "[gpu_sim][simt][race]") {
  edp_sim::reset_all();
  DeviceFloats sink(1), out(1000), partials(6);
  REQUIRE(cudaMemset(sink.get(), 0, 4) == cudaSuccess);
  launch("atomic_sum_kernel", atomic_sum_kernel, 6, 64, sink.get());
  launch("own_elements_kernel", own_elements_kernel, 4, 64, out.get(), 1000);
  launch("per_block_partial_kernel", per_block_partial_kernel, 6, 64, partials.get());
  // A second launch may store where the first did: launches are ordered.
  launch("own_elements_kernel", own_elements_kernel, 3, 32, out.get(), 1000);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  float host_sink = 0.0f, host_out[1000], host_partials[6];
  REQUIRE(cudaMemcpy(&host_sink, sink.get(), 4, cudaMemcpyDeviceToHost) == cudaSuccess);
  REQUIRE(cudaMemcpy(host_out, out.get(), sizeof host_out, cudaMemcpyDeviceToHost) == cudaSuccess);
  REQUIRE(cudaMemcpy(host_partials, partials.get(), sizeof host_partials, cudaMemcpyDeviceToHost) ==
          cudaSuccess);
  CHECK(host_sink == 6.0f);
  for (int i = 0; i < 1000; ++i) CHECK(host_out[i] == static_cast<float>(i));
  for (float p : host_partials) CHECK(p == 64.0f);
}
