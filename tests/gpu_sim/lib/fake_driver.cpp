// GPU simulator: the CUDA Driver API calls edpbench makes (cuda.h), after the
// CUDA Driver API reference. The primary context is the one the runtime uses
// (fake_state.h), so the two APIs see the same state.
//  - cuDevicePrimaryCtxGetState: flags and whether the context is active;
//    creates nothing.
//  - cuDevicePrimaryCtxSetFlags, the CUDA 10.2 entry point: "If the primary
//    context is already created CUDA_ERROR_PRIMARY_CONTEXT_ACTIVE is
//    returned", under every CUDA version: the driver keeps the old symbol's
//    behaviour for binaries that ask for it by name (seen on an H200, driver
//    580.159.04, CUDA 13.0: the symbol looked up by that name refused a live
//    context; docs/gpu.md, "On a real GPU"). cuDevicePrimaryCtxSetFlags_v2,
//    which CUDA 11+ headers map the name to, "Sets the flags for the primary
//    context on the device overwriting previously set ones". The scheduling
//    part must be one of CU_CTX_SCHED_*.
// Every call but cuInit and cuDriverGetVersion needs cuInit first
// (CUDA_ERROR_NOT_INITIALIZED).
#include <atomic>

#include "cuda.h"
#include "device_limits.h"
#include "fake_state.h"

using namespace edp_sim;

namespace {
std::atomic<bool> g_initialised{false};

// Every driver call's result passes here: a failure joins the API error log.
CUresult driver_result(const char* call, CUresult status) {
  if (status != CUDA_SUCCESS) note_api_error(call, status);
  return status;
}
}  // namespace

extern "C" {

static CUresult cuInit_impl(unsigned int flags) {
  if (flags != 0) return CUDA_ERROR_INVALID_VALUE;  // "Currently, Flags must be 0"
  g_initialised = true;
  return CUDA_SUCCESS;
}

CUresult cuInit(unsigned int flags) { return driver_result("cuInit", cuInit_impl(flags)); }

CUresult cuDriverGetVersion(int* v) {
  if (v == nullptr) return CUDA_ERROR_INVALID_VALUE;
  *v = version();
  return CUDA_SUCCESS;
}

static CUresult cuDeviceGetCount_impl(int* count) {
  if (!g_initialised) return CUDA_ERROR_NOT_INITIALIZED;
  if (count == nullptr) return CUDA_ERROR_INVALID_VALUE;
  *count = DeviceLimits::kDeviceCount;
  return CUDA_SUCCESS;
}

CUresult cuDeviceGetCount(int* count) {
  return driver_result("cuDeviceGetCount", cuDeviceGetCount_impl(count));
}

static CUresult cuDeviceGet_impl(CUdevice* device, int ordinal) {
  if (!g_initialised) return CUDA_ERROR_NOT_INITIALIZED;
  if (device == nullptr) return CUDA_ERROR_INVALID_VALUE;
  if (!valid_device(ordinal)) return CUDA_ERROR_INVALID_DEVICE;
  *device = ordinal;
  return CUDA_SUCCESS;
}

CUresult cuDeviceGet(CUdevice* device, int ordinal) {
  return driver_result("cuDeviceGet", cuDeviceGet_impl(device, ordinal));
}

static CUresult cuDevicePrimaryCtxGetState_impl(CUdevice dev, unsigned int* flags, int* active) {
  if (!g_initialised) return CUDA_ERROR_NOT_INITIALIZED;
  if (!valid_device(dev)) return CUDA_ERROR_INVALID_DEVICE;
  if (flags == nullptr || active == nullptr) return CUDA_ERROR_INVALID_VALUE;
  Guard lock(api_lock());
  const PrimaryContext& ctx = primary_context(dev);
  *flags = ctx.flags;
  *active = ctx.active ? 1 : 0;
  return CUDA_SUCCESS;
}

CUresult cuDevicePrimaryCtxGetState(CUdevice dev, unsigned int* flags, int* active) {
  return driver_result("cuDevicePrimaryCtxGetState",
                       cuDevicePrimaryCtxGetState_impl(dev, flags, active));
}

static CUresult set_flags(CUdevice dev, unsigned int flags, bool overwrite_live) {
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
  if (ctx.active && !overwrite_live) return CUDA_ERROR_PRIMARY_CONTEXT_ACTIVE;
  ctx.flags = flags & ~static_cast<unsigned>(CU_CTX_MAP_HOST);
  return CUDA_SUCCESS;
}

CUresult cuDevicePrimaryCtxSetFlags(CUdevice dev, unsigned int flags) {
  return driver_result("cuDevicePrimaryCtxSetFlags", set_flags(dev, flags, false));
}

// CUDA 11 headers map the name to this entry point (it does not exist before 11).
CUresult cuDevicePrimaryCtxSetFlags_v2(CUdevice dev, unsigned int flags) {
  if (version() < 11000)
    return driver_result("cuDevicePrimaryCtxSetFlags_v2", CUDA_ERROR_NOT_SUPPORTED);
  return driver_result("cuDevicePrimaryCtxSetFlags_v2", set_flags(dev, flags, true));
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
