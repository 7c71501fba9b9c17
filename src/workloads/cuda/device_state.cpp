// Process-wide CUDA device state (see device_state.h).
#include "workloads/cuda/device_state.h"

#include <cuda.h>
#include <cuda_runtime_api.h>
#include <dlfcn.h>

#include <cstdio>
#include <map>
#include <mutex>
#include <utility>

#include "common/errors.h"
#include "workloads/cuda/cuda_check.h"

namespace edp {
namespace cuda {

// ---- host wait ------------------------------------------------------------------

unsigned schedule_flag(const std::string& sync) {
  if (sync == "block") return cudaDeviceScheduleBlockingSync;
  if (sync == "yield") return cudaDeviceScheduleYield;
  if (sync == "spin") return cudaDeviceScheduleSpin;
  throw UsageError("unknown gpu.sync '" + sync + "' (valid: block, yield, spin)");
}

std::string schedule_flag_name(unsigned flag) {
  switch (flag & cudaDeviceScheduleMask) {
    case cudaDeviceScheduleAuto:
      return "cudaDeviceScheduleAuto";
    case cudaDeviceScheduleSpin:
      return "cudaDeviceScheduleSpin";
    case cudaDeviceScheduleYield:
      return "cudaDeviceScheduleYield";
    case cudaDeviceScheduleBlockingSync:
      return "cudaDeviceScheduleBlockingSync";
    default: {
      char text[16];
      std::snprintf(text, sizeof text, "0x%x", flag & cudaDeviceScheduleMask);
      return text;
    }
  }
}

// ---- driver API through dlopen ------------------------------------------------------

namespace {

// The runtime's schedule flags are the driver's context flags (cuda.h and
// driver_types.h; CUDA Runtime API, cudaSetDeviceFlags).
static_assert(cudaDeviceScheduleSpin == CU_CTX_SCHED_SPIN, "spin");
static_assert(cudaDeviceScheduleYield == CU_CTX_SCHED_YIELD, "yield");
static_assert(cudaDeviceScheduleBlockingSync == CU_CTX_SCHED_BLOCKING_SYNC, "blocking sync");

// The driver entry points that read and set the primary context's state
// without creating it. Loaded once; libcuda stays loaded for the process (the
// runtime loads the same library anyway). cuDevicePrimaryCtxSetFlags is looked
// up by its CUDA 10.2 name: that entry point refuses a context that exists
// (CUDA_ERROR_PRIMARY_CONTEXT_ACTIVE) instead of changing it under its users;
// cuda.h of CUDA 11+ maps the name to the _v2 entry point, so the type is
// spelled out.
using PrimaryCtxSetFlagsFn = CUresult (*)(CUdevice, unsigned int);
struct Driver {
  decltype(&cuInit) init = nullptr;
  decltype(&cuDeviceGet) device_get = nullptr;
  decltype(&cuDevicePrimaryCtxGetState) get_state = nullptr;
  PrimaryCtxSetFlagsFn set_flags = nullptr;
  bool ready = false;
};

const Driver& driver() {
  static const Driver d = [] {
    Driver out;
    void* lib = ::dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (lib == nullptr) return out;
    out.init = reinterpret_cast<decltype(&cuInit)>(::dlsym(lib, "cuInit"));
    out.device_get = reinterpret_cast<decltype(&cuDeviceGet)>(::dlsym(lib, "cuDeviceGet"));
    out.get_state = reinterpret_cast<decltype(&cuDevicePrimaryCtxGetState)>(
        ::dlsym(lib, "cuDevicePrimaryCtxGetState"));
    out.set_flags =
        reinterpret_cast<PrimaryCtxSetFlagsFn>(::dlsym(lib, "cuDevicePrimaryCtxSetFlags"));
    out.ready = out.init && out.device_get && out.get_state && out.init(0) == CUDA_SUCCESS;
    return out;
  }();
  return d;
}

}  // namespace

PrimaryContextState primary_context_state(int device) {
  PrimaryContextState state;
  const Driver& d = driver();
  if (!d.ready || device < 0) return state;
  CUdevice handle = 0;
  if (d.device_get(&handle, device) != CUDA_SUCCESS) return state;
  unsigned flags = 0;
  int active = 0;
  if (d.get_state(handle, &flags, &active) != CUDA_SUCCESS) return state;
  state.known = true;
  state.active = active != 0;
  state.flags = flags;
  return state;
}

PrimaryContextFlagsResult set_primary_context_flags(int device, unsigned flags) {
  PrimaryContextFlagsResult result;
  const Driver& d = driver();
  if (!d.ready || d.set_flags == nullptr || device < 0) return result;
  // Asked first, so that a live context is not met with a call that fails:
  // compute-sanitizer's memcheck counts every failed API call as an error
  // (on an H200 it reported this one for every backend after the first).
  const PrimaryContextState state = primary_context_state(device);
  CUdevice handle = 0;
  const CUresult got = d.device_get(&handle, device);
  result.known = true;
  if (got != CUDA_SUCCESS) {
    result.driver_status = got;
  } else if (state.known && state.active) {
    result.context_active = true;  // the 10.2 entry point would refuse it
  } else {
    result.driver_status = d.set_flags(handle, flags);
    result.context_active = result.driver_status == CUDA_ERROR_PRIMARY_CONTEXT_ACTIVE;
  }
  return result;
}

void restore_device(int previous) {
  // Since CUDA 12, cudaSetDevice creates the context of the device it selects:
  // go back to the previous device only if its context exists anyway.
  if (previous < 0) return;
  int current = -1;
  if (cudaGetDevice(&current) == cudaSuccess && current == previous) return;
  const PrimaryContextState other = primary_context_state(previous);
  if (!other.known || other.active) (void)cudaSetDevice(previous);
  (void)cudaGetLastError();
}

void reset_primary_context(int device) {
  int previous = -1;
  if (cudaGetDevice(&previous) != cudaSuccess) previous = -1;
  if (cudaSetDevice(device) == cudaSuccess) (void)cudaDeviceReset();
  if (previous != device) restore_device(previous);
  (void)cudaGetLastError();
}

// ---- users ----------------------------------------------------------------------------

namespace {

struct Users {
  int count = 0;
  std::string sync;  // the mode of the current users (all share it)
};

std::mutex& users_mutex() {
  static std::mutex m;
  return m;
}

std::map<int, Users>& users() {
  static std::map<int, Users> u;
  return u;
}

}  // namespace

DeviceUse::DeviceUse(int device, std::string sync) : device_(device) {
  std::lock_guard<std::mutex> lock(users_mutex());
  Users& u = users()[device];
  if (u.count > 0 && u.sync != sync) {
    throw CudaError("gpu.sync: " + sync + " cannot be used on CUDA device " +
                    std::to_string(device) + ": " + std::to_string(u.count) +
                    " backend(s) or their tensors still use it with sync: " + u.sync +
                    ", and one CUDA context has one host-wait mode; destroy them (and call "
                    "cuda_release_device) first");
  }
  u.sync = std::move(sync);
  ++u.count;
}

DeviceUse::~DeviceUse() {
  std::lock_guard<std::mutex> lock(users_mutex());
  auto it = users().find(device_);
  if (it != users().end() && --it->second.count <= 0) users().erase(it);
}

std::shared_ptr<DeviceUse> acquire_device_use(int device, const std::string& sync) {
  return std::make_shared<DeviceUse>(device, sync);
}

int device_users(int device) {
  std::lock_guard<std::mutex> lock(users_mutex());
  auto it = users().find(device);
  return it == users().end() ? 0 : it->second.count;
}

}  // namespace cuda
}  // namespace edp
