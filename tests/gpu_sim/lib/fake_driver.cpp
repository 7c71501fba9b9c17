// GPU simulator: the CUDA Driver API calls edpbench makes (cuda.h), after the
// CUDA Driver API reference. The primary context is the one the runtime uses
// (fake_state.h), so the two APIs see the same state.
//  - cuDevicePrimaryCtxGetState: flags and whether the context is active;
//    creates nothing.
//  - cuDevicePrimaryCtxSetFlags: CUDA 10.2, "If the primary context is already
//    created CUDA_ERROR_PRIMARY_CONTEXT_ACTIVE is returned"; from CUDA 11 it
//    "Sets the flags for the primary context on the device overwriting
//    previously set ones". The scheduling part must be one of CU_CTX_SCHED_*.
// Every call but cuInit and cuDriverGetVersion needs cuInit first
// (CUDA_ERROR_NOT_INITIALIZED).
#include <atomic>

#include "cuda.h"
#include "device_limits.h"
#include "fake_state.h"

using namespace edp_sim;

namespace {
std::atomic<bool> g_initialised{false};
}

extern "C" {

CUresult cuInit(unsigned int flags) {
  if (flags != 0) return CUDA_ERROR_INVALID_VALUE;  // "Currently, Flags must be 0"
  g_initialised = true;
  return CUDA_SUCCESS;
}

CUresult cuDriverGetVersion(int* v) {
  if (v == nullptr) return CUDA_ERROR_INVALID_VALUE;
  *v = version();
  return CUDA_SUCCESS;
}

CUresult cuDeviceGetCount(int* count) {
  if (!g_initialised) return CUDA_ERROR_NOT_INITIALIZED;
  if (count == nullptr) return CUDA_ERROR_INVALID_VALUE;
  *count = DeviceLimits::kDeviceCount;
  return CUDA_SUCCESS;
}

CUresult cuDeviceGet(CUdevice* device, int ordinal) {
  if (!g_initialised) return CUDA_ERROR_NOT_INITIALIZED;
  if (device == nullptr) return CUDA_ERROR_INVALID_VALUE;
  if (!valid_device(ordinal)) return CUDA_ERROR_INVALID_DEVICE;
  *device = ordinal;
  return CUDA_SUCCESS;
}

CUresult cuDevicePrimaryCtxGetState(CUdevice dev, unsigned int* flags, int* active) {
  if (!g_initialised) return CUDA_ERROR_NOT_INITIALIZED;
  if (!valid_device(dev)) return CUDA_ERROR_INVALID_DEVICE;
  if (flags == nullptr || active == nullptr) return CUDA_ERROR_INVALID_VALUE;
  Guard lock(api_lock());
  const PrimaryContext& ctx = primary_context(dev);
  *flags = ctx.flags;
  *active = ctx.active ? 1 : 0;
  return CUDA_SUCCESS;
}

CUresult cuDevicePrimaryCtxSetFlags(CUdevice dev, unsigned int flags) {
  if (!g_initialised) return CUDA_ERROR_NOT_INITIALIZED;
  if (!valid_device(dev)) return CUDA_ERROR_INVALID_DEVICE;
  const unsigned sched = flags & CU_CTX_SCHED_MASK;
  if ((flags & ~static_cast<unsigned>(CU_CTX_FLAGS_MASK)) != 0 ||
      !(sched == CU_CTX_SCHED_AUTO || sched == CU_CTX_SCHED_SPIN || sched == CU_CTX_SCHED_YIELD ||
        sched == CU_CTX_SCHED_BLOCKING_SYNC)) {
    return CUDA_ERROR_INVALID_VALUE;
  }
  Guard lock(api_lock());
  PrimaryContext& ctx = primary_context(dev);
  if (ctx.active && version() < 11000) return CUDA_ERROR_PRIMARY_CONTEXT_ACTIVE;
  ctx.flags = flags & ~static_cast<unsigned>(CU_CTX_MAP_HOST);
  return CUDA_SUCCESS;
}

// CUDA 11 headers map these names to their _v2 entry points.
CUresult cuDevicePrimaryCtxSetFlags_v2(CUdevice dev, unsigned int flags) {
  return cuDevicePrimaryCtxSetFlags(dev, flags);
}

CUresult cuGetErrorName(CUresult error, const char** name) {
  if (name == nullptr) return CUDA_ERROR_INVALID_VALUE;
  switch (error) {
    case CUDA_SUCCESS:
      *name = "CUDA_SUCCESS";
      break;
    case CUDA_ERROR_INVALID_VALUE:
      *name = "CUDA_ERROR_INVALID_VALUE";
      break;
    case CUDA_ERROR_NOT_INITIALIZED:
      *name = "CUDA_ERROR_NOT_INITIALIZED";
      break;
    case CUDA_ERROR_NO_DEVICE:
      *name = "CUDA_ERROR_NO_DEVICE";
      break;
    case CUDA_ERROR_INVALID_DEVICE:
      *name = "CUDA_ERROR_INVALID_DEVICE";
      break;
    case CUDA_ERROR_PRIMARY_CONTEXT_ACTIVE:
      *name = "CUDA_ERROR_PRIMARY_CONTEXT_ACTIVE";
      break;
    default:
      *name = nullptr;
      return CUDA_ERROR_INVALID_VALUE;
  }
  return CUDA_SUCCESS;
}

CUresult cuGetErrorString(CUresult error, const char** text) {
  if (text == nullptr) return CUDA_ERROR_INVALID_VALUE;
  switch (error) {
    case CUDA_SUCCESS:
      *text = "no error";
      break;
    case CUDA_ERROR_INVALID_VALUE:
      *text = "invalid argument";
      break;
    case CUDA_ERROR_NOT_INITIALIZED:
      *text = "initialization error";
      break;
    case CUDA_ERROR_NO_DEVICE:
      *text = "no CUDA-capable device is detected";
      break;
    case CUDA_ERROR_INVALID_DEVICE:
      *text = "invalid device ordinal";
      break;
    case CUDA_ERROR_PRIMARY_CONTEXT_ACTIVE:
      *text = "primary context active";
      break;
    default:
      *text = nullptr;
      return CUDA_ERROR_INVALID_VALUE;
  }
  return CUDA_SUCCESS;
}

}  // extern "C"
