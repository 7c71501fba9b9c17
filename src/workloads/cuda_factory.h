// Entry points of the CUDA backend (DESIGN §2). They exist in every build:
// with CUDA they come from src/workloads/cuda/, without it from
// cuda_factory_stub.cpp, so callers never need an #if.
#pragma once

#include <map>
#include <memory>
#include <string>

#include "workloads/backend.h"

namespace edp {

struct CudaOptions {
  int device_index = 0;
  std::string relu = "kernel"; /* kernel | cudnn */
  // How the host thread waits for the GPU (config gpu.sync): "block" sleeps
  // until the GPU signals (cudaDeviceScheduleBlockingSync), "yield" polls and
  // yields the core (cudaDeviceScheduleYield), "spin" polls
  // (cudaDeviceScheduleSpin). Set on the primary context before it is created.
  std::string sync = "block";
  // Informational, for describe(): the CPUs the launching thread is pinned to
  // and why (filled in by bench::make_backend_for); empty = not recorded.
  std::string host_thread_cpus;
};

// Empty string when a CUDA device `index` is usable; otherwise why not (no CUDA
// in this build, no driver, no device, index out of range, no kernel image for
// the device's architecture), with the CUDA error text.
//
// The device is probed once per process (this and cuda_device_info() share
// one cached probe), and the probe leaves no CUDA context behind: if the
// device's primary context did not exist before, it is destroyed again, so a
// CPU configuration measured afterwards runs without one.
std::string cuda_unavailable_reason(int index);

// Throws std::runtime_error (with CUDA error text) on failure, and a clear
// message if relu=="cudnn" was asked but the build has no cuDNN.
std::unique_ptr<Backend> make_cuda_backend(const CudaOptions& options);

// Facts for context.json: GPU name, compute capability, SM count, clocks (sm,
// mem), memory total/free, CUDA runtime and driver versions, cuBLAS version,
// cuDNN version. Empty map if unavailable. From the cached probe (see
// cuda_unavailable_reason): free memory is as it was at the first call.
std::map<std::string, std::string> cuda_device_info(int index);

// Destroys the primary context of CUDA device `index` (cudaDeviceReset), so
// that what runs next (a CPU configuration, an idle baseline) runs without a
// CUDA context. Call it once a GPU configuration's backend is gone. Does
// nothing while a backend of that device, or a tensor one made, is still
// alive (their memory lives in that context), when the context does not
// exist, and in a build without CUDA.
void cuda_release_device(int index);

// Whether the primary context of CUDA device `index` exists now, asked of the
// driver (cuDevicePrimaryCtxGetState), which creates nothing. False without
// CUDA, without a driver, or for an index the driver does not know.
bool cuda_primary_context_active(int index);

}  // namespace edp
