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
};

// Empty string when a CUDA device `index` is usable; otherwise why not (no CUDA
// in this build, no driver, no device, index out of range, no kernel image for
// the device's architecture), with the CUDA error text.
std::string cuda_unavailable_reason(int index);

// Throws std::runtime_error (with CUDA error text) on failure, and a clear
// message if relu=="cudnn" was asked but the build has no cuDNN.
std::unique_ptr<Backend> make_cuda_backend(const CudaOptions& options);

// Facts for context.json: GPU name, compute capability, SM count, clocks (sm,
// mem), memory total/free, CUDA runtime and driver versions, cuBLAS version,
// cuDNN version. Empty map if unavailable.
std::map<std::string, std::string> cuda_device_info(int index);

}  // namespace edp
