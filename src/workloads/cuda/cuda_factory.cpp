// The CUDA entry points of a build with CUDA (declared in cuda_factory.h; a
// build without CUDA gets cuda_factory_stub.cpp instead).
#include "workloads/cuda_factory.h"

#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include <map>
#include <mutex>
#include <string>

#include "edpbench/config.h"
#include "workloads/cuda/cuda_backend.h"
#include "workloads/cuda/device_state.h"
#include "workloads/cuda/kernels.h"

#if EDPBENCH_HAVE_CUDNN
#include <cudnn.h>
#endif

namespace edp {

namespace {

// "10.2" from 10020, "13.0" from 13000 (cudaRuntimeGetVersion's encoding).
std::string cuda_version_text(int version) {
  return std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
}

std::string mib(std::size_t bytes) { return std::to_string(bytes / (1024 * 1024)); }

std::string with_error(const std::string& what, cudaError_t status) {
  (void)cudaGetLastError();  // do not leave a stale error for later launch checks
  return what + ": " + cudaGetErrorString(status) + " (" + cudaGetErrorName(status) + ")";
}

// What one probe of a device found: why it cannot be used (empty if it can)
// and, if it can, the facts for context.json.
struct Probe {
  std::string reason;
  std::map<std::string, std::string> info;
};

// The facts of the device that is current, with its context alive.
std::map<std::string, std::string> collect_info(int index) {
  std::map<std::string, std::string> info;
  cudaDeviceProp prop;
  if (cudaGetDeviceProperties(&prop, index) == cudaSuccess) {
    info["gpu_name"] = prop.name;
    info["gpu_compute_capability"] = std::to_string(prop.major) + "." + std::to_string(prop.minor);
    info["gpu_sm_count"] = std::to_string(prop.multiProcessorCount);
    info["gpu_integrated"] = prop.integrated ? "1" : "0";  // 1 on Tegra: memory shared with the CPU
    info["gpu_memory_bus_width_bits"] = std::to_string(prop.memoryBusWidth);
  }
  // cudaDeviceProp::clockRate and memoryClockRate are gone in CUDA 13; the
  // attributes exist in every version. Both are the peak (kHz), not the
  // current DVFS clock: the platform layer reads that from sysfs.
  int khz = 0;
  if (cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, index) == cudaSuccess) {
    info["gpu_clock_sm_max_mhz"] = std::to_string(khz / 1000);
  }
  if (cudaDeviceGetAttribute(&khz, cudaDevAttrMemoryClockRate, index) == cudaSuccess) {
    info["gpu_clock_mem_max_mhz"] = std::to_string(khz / 1000);
  }
  std::size_t free_bytes = 0, total_bytes = 0;
  if (cudaMemGetInfo(&free_bytes, &total_bytes) == cudaSuccess) {
    info["gpu_memory_total_mib"] = mib(total_bytes);
    info["gpu_memory_free_mib"] = mib(free_bytes);  // at the probe, before any backend
  }
  int version = 0;
  if (cudaRuntimeGetVersion(&version) == cudaSuccess) {
    info["cuda_runtime_version"] = cuda_version_text(version);
  }
  if (cudaDriverGetVersion(&version) == cudaSuccess) {
    info["cuda_driver_version"] = cuda_version_text(version);
  }
  int major = 0, minor = 0, patch = 0;
  if (cublasGetProperty(MAJOR_VERSION, &major) == CUBLAS_STATUS_SUCCESS &&
      cublasGetProperty(MINOR_VERSION, &minor) == CUBLAS_STATUS_SUCCESS &&
      cublasGetProperty(PATCH_LEVEL, &patch) == CUBLAS_STATUS_SUCCESS) {
    info["cublas_version"] =
        std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch);
  }
#if EDPBENCH_HAVE_CUDNN
  if (cudnnGetProperty(MAJOR_VERSION, &major) == CUDNN_STATUS_SUCCESS &&
      cudnnGetProperty(MINOR_VERSION, &minor) == CUDNN_STATUS_SUCCESS &&
      cudnnGetProperty(PATCH_LEVEL, &patch) == CUDNN_STATUS_SUCCESS) {
    info["cudnn_version"] =
        std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch);
  }
#else
  info["cudnn_version"] = "none (built without cuDNN)";
#endif
  info["cuda_architectures_built"] = EDPBENCH_CUDA_ARCHITECTURES;
  (void)cudaGetLastError();
  return info;
}

// Needs a context: creating one is the only test that the device can really
// be used (compute mode, another process holding it exclusively), and the
// kernel-image check needs one too.
std::string probe_with_context(int index, std::map<std::string, std::string>& info) {
  const cudaError_t select = cudaSetDevice(index);
  if (select != cudaSuccess) {
    return with_error("cannot select CUDA device " + std::to_string(index), select);
  }
  const cudaError_t init = cudaFree(nullptr);
  if (init != cudaSuccess) {
    return with_error("cannot create a context on CUDA device " + std::to_string(index), init);
  }
  const cudaError_t image = cuda::probe_kernel_image();
  if (image != cudaSuccess) {
    int major = 0, minor = 0;
    (void)cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, index);
    (void)cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, index);
    const std::string cc = std::to_string(major) + std::to_string(minor);
    return with_error("this binary has no GPU code for CUDA device " + std::to_string(index) +
                          " (sm_" + cc +
                          "; built for CMAKE_CUDA_ARCHITECTURES=" + EDPBENCH_CUDA_ARCHITECTURES +
                          "; rebuild with -DCMAKE_CUDA_ARCHITECTURES=" + cc + ")",
                      image);
  }
  info = collect_info(index);
  return {};
}

Probe run_probe(int index) {
  Probe p;
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);  // creates no context
  if (status != cudaSuccess) {
    p.reason = with_error("no usable CUDA driver or device", status);
    return p;
  }
  if (count == 0) {
    p.reason = "no CUDA device found";
    return p;
  }
  if (index < 0 || index >= count) {
    p.reason = "CUDA device index " + std::to_string(index) +
               " is out of range (this machine has " + std::to_string(count) + " device(s): 0.." +
               std::to_string(count - 1) + ")";
    return p;
  }
  const cuda::PrimaryContextState before = cuda::primary_context_state(index);
  int previous = -1;
  if (cudaGetDevice(&previous) != cudaSuccess) previous = -1;
  p.reason = probe_with_context(index, p.info);
  if (before.known && !before.active && cuda::device_users(index) == 0) {
    // The probe made the context: take it down again (restores the thread's
    // device where that creates nothing).
    cuda::reset_primary_context(index);
  } else if (previous != index) {
    cuda::restore_device(previous);  // creates no context (CUDA 12+)
  }
  (void)cudaGetLastError();
  return p;
}

// One probe per device per process.
const Probe& cached_probe(int index) {
  static std::mutex mutex;
  static std::map<int, Probe> probes;
  std::lock_guard<std::mutex> lock(mutex);
  auto it = probes.find(index);
  if (it == probes.end()) it = probes.emplace(index, run_probe(index)).first;
  return it->second;
}

}  // namespace

std::string cuda_unavailable_reason(int index) { return cached_probe(index).reason; }

std::unique_ptr<Backend> make_cuda_backend(const CudaOptions& options) {
  return std::make_unique<cuda::CudaBackend>(options);
}

std::map<std::string, std::string> cuda_device_info(int index) {
  const Probe& p = cached_probe(index);
  return p.reason.empty() ? p.info : std::map<std::string, std::string>{};
}

void cuda_release_device(int index) {
  if (index < 0 || cuda::device_users(index) > 0) return;
  const cuda::PrimaryContextState state = cuda::primary_context_state(index);
  if (state.known) {
    if (state.active) cuda::reset_primary_context(index);
    return;
  }
  // The driver could not be asked directly; the runtime still knows whether
  // the device exists (a reset of a device without a context is harmless).
  int count = 0;
  if (cudaGetDeviceCount(&count) == cudaSuccess && index < count) {
    cuda::reset_primary_context(index);
  }
  (void)cudaGetLastError();
}

bool cuda_primary_context_active(int index) {
  const cuda::PrimaryContextState state = cuda::primary_context_state(index);
  return state.known && state.active;
}

}  // namespace edp
