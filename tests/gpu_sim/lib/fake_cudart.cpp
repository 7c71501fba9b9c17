// GPU simulator: the CUDA Runtime API entry points (cuda_runtime_api.h),
// after the CUDA Runtime API reference (CUDA 10.2, 11.8 and 12.x editions).
// Version-dependent behaviour follows edp_sim::version():
//  - cudaSetDevice: from CUDA 12.0 it "will also immediately initialize the
//    runtime state on the primary context"; before, the context is created by
//    the first call that needs one.
//  - cudaSetDeviceFlags: CUDA 10.2, "If the current device has been set and
//    that device has already been initialized then this call will fail with
//    the error cudaErrorSetOnActiveProcess"; from CUDA 11, "the previous flags
//    are overwritten", and an uninitialised device "is initialized with the
//    provided flags".
// A fault injected with edp_sim::inject_fault(<entry point's name>, code) is
// the call's result before it does anything (EDP_SIM_FAULT).
#include <cstring>
#include <memory>
#include <string>

#include "device_limits.h"
#include "fake_memory.h"
#include "fake_state.h"
#include "fake_stream.h"

using namespace edp_sim;

// A fault injected into this call (edp_sim::inject_fault) is its result.
#define EDP_SIM_FAULT(call)                            \
  do {                                                 \
    const cudaError_t injected_ = runtime_fault(call); \
    if (injected_ != cudaSuccess) return injected_;    \
  } while (0)

namespace {

bool valid_schedule(unsigned flags) {
  const unsigned sched = flags & cudaDeviceScheduleMask;
  return sched == cudaDeviceScheduleAuto || sched == cudaDeviceScheduleSpin ||
         sched == cudaDeviceScheduleYield || sched == cudaDeviceScheduleBlockingSync;
}

// Checks one device-side range of a copy or memset.
cudaError_t check_device_range(const char* call, const void* p, std::size_t bytes) {
  if (allocation_of(p, bytes) != nullptr) return cudaSuccess;
  diagnose("%s: %s", call, explain_range(p, bytes).c_str());
  return cudaErrorInvalidValue;
}

// The device sides of a copy of `kind`: which of dst and src must be device
// memory. cudaMemcpyDefault infers it from the pointers (unified addressing).
cudaError_t check_copy(const char* call, void* dst, const void* src, std::size_t count,
                       cudaMemcpyKind kind) {
  if (count == 0) return cudaSuccess;
  bool dst_device = kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice;
  bool src_device = kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice;
  if (kind == cudaMemcpyDefault) {
    dst_device = is_device_pointer(dst);
    src_device = is_device_pointer(src);
  } else if (kind != cudaMemcpyHostToHost && !dst_device && !src_device) {
    return cudaErrorInvalidValue;
  }
  if (kind < cudaMemcpyHostToHost || kind > cudaMemcpyDefault) return cudaErrorInvalidValue;
  if (dst == nullptr || src == nullptr) return cudaErrorInvalidValue;
  if (dst_device) {
    const cudaError_t e = check_device_range(call, dst, count);
    if (e != cudaSuccess) return e;
  } else if (is_device_pointer(dst)) {
    diagnose("%s: destination %p is device memory, but the kind says host", call, dst);
    return cudaErrorInvalidValue;
  }
  if (src_device) return check_device_range(call, src, count);
  if (is_device_pointer(src)) {
    diagnose("%s: source %p is device memory, but the kind says host", call, src);
    return cudaErrorInvalidValue;
  }
  return cudaSuccess;
}

void fill_properties(cudaDeviceProp* prop) {
  std::memset(prop, 0, sizeof *prop);
  std::strncpy(prop->name, "edpbench GPU simulator (TX2 limits)", sizeof prop->name - 1);
  prop->totalGlobalMem = DeviceLimits::kGlobalBytes;
  prop->sharedMemPerBlock = DeviceLimits::kSharedBytesPerBlock;
  prop->regsPerBlock = 32768;
  prop->warpSize = DeviceLimits::kWarpSize;
  prop->maxThreadsPerBlock = DeviceLimits::kMaxThreadsPerBlock;
  for (int i = 0; i < 3; ++i) {
    prop->maxThreadsDim[i] = static_cast<int>(DeviceLimits::kMaxBlockDim[i]);
    prop->maxGridSize[i] = static_cast<int>(DeviceLimits::kMaxGridDim[i]);
  }
  prop->major = DeviceLimits::kMajor;
  prop->minor = DeviceLimits::kMinor;
  prop->multiProcessorCount = DeviceLimits::kSmCount;
  prop->integrated = 1;
  prop->memoryBusWidth = DeviceLimits::kBusWidthBits;
  prop->l2CacheSize = DeviceLimits::kL2Bytes;
  prop->maxThreadsPerMultiProcessor = DeviceLimits::kMaxThreadsPerSm;
  prop->sharedMemPerMultiprocessor = 64 * 1024;
  prop->regsPerMultiprocessor = 65536;
}

}  // namespace

extern "C" {

const char* cudaGetErrorString(cudaError_t error) {
  switch (error) {
    case cudaSuccess:
      return "no error";
    case cudaErrorInvalidValue:
      return "invalid argument";
    case cudaErrorMemoryAllocation:
      return "out of memory";
    case cudaErrorInitializationError:
      return "initialization error";
    case cudaErrorInvalidConfiguration:
      return "invalid configuration argument";
    case cudaErrorInvalidDeviceFunction:
      return "invalid device function";
    case cudaErrorNoDevice:
      return "no CUDA-capable device is detected";
    case cudaErrorInvalidDevice:
      return "invalid device ordinal";
    case cudaErrorNoKernelImageForDevice:
      return "no kernel image is available for execution on the device";
    case cudaErrorInvalidResourceHandle:
      return "invalid resource handle";
    case cudaErrorNotReady:
      return "device not ready";
    case cudaErrorIllegalAddress:
      return "an illegal memory access was encountered";
    case cudaErrorLaunchOutOfResources:
      return "too many resources requested for launch";
    case cudaErrorSetOnActiveProcess:
      return "cannot set while device is active in this process";
    case cudaErrorLaunchFailure:
      return "unspecified launch failure";
    default:
      return "unknown error";
  }
}

const char* cudaGetErrorName(cudaError_t error) {
  switch (error) {
    case cudaSuccess:
      return "cudaSuccess";
    case cudaErrorInvalidValue:
      return "cudaErrorInvalidValue";
    case cudaErrorMemoryAllocation:
      return "cudaErrorMemoryAllocation";
    case cudaErrorInitializationError:
      return "cudaErrorInitializationError";
    case cudaErrorInvalidConfiguration:
      return "cudaErrorInvalidConfiguration";
    case cudaErrorInvalidDeviceFunction:
      return "cudaErrorInvalidDeviceFunction";
    case cudaErrorNoDevice:
      return "cudaErrorNoDevice";
    case cudaErrorInvalidDevice:
      return "cudaErrorInvalidDevice";
    case cudaErrorNoKernelImageForDevice:
      return "cudaErrorNoKernelImageForDevice";
    case cudaErrorInvalidResourceHandle:
      return "cudaErrorInvalidResourceHandle";
    case cudaErrorNotReady:
      return "cudaErrorNotReady";
    case cudaErrorIllegalAddress:
      return "cudaErrorIllegalAddress";
    case cudaErrorLaunchOutOfResources:
      return "cudaErrorLaunchOutOfResources";
    case cudaErrorSetOnActiveProcess:
      return "cudaErrorSetOnActiveProcess";
    case cudaErrorLaunchFailure:
      return "cudaErrorLaunchFailure";
    default:
      return "cudaErrorUnknown";
  }
}

cudaError_t cudaGetLastError(void) {
  Guard lock(api_lock());
  return take_last_error();
}

cudaError_t cudaPeekAtLastError(void) {
  Guard lock(api_lock());
  return peek_last_error();
}

cudaError_t cudaGetDeviceCount(int* count) {
  if (count == nullptr) return fail(cudaErrorInvalidValue);
  *count = DeviceLimits::kDeviceCount;
  return cudaSuccess;
}

cudaError_t cudaSetDevice(int device) {
  Guard lock(api_lock());
  EDP_SIM_FAULT("cudaSetDevice");
  if (!valid_device(device)) return fail(cudaErrorInvalidDevice);
  set_current_device(device);
  if (version() >= 12000) ensure_context(device);
  return cudaSuccess;
}

cudaError_t cudaGetDevice(int* device) {
  if (device == nullptr) return fail(cudaErrorInvalidValue);
  *device = current_device();
  return cudaSuccess;
}

cudaError_t cudaSetDeviceFlags(unsigned int flags) {
  Guard lock(api_lock());
  if ((flags & ~static_cast<unsigned>(cudaDeviceMask)) != 0 || !valid_schedule(flags)) {
    return fail(cudaErrorInvalidValue);
  }
  PrimaryContext& ctx = primary_context(current_device());
  // cudaDeviceMapHost is implicit in runtime contexts; keep the schedule bits.
  const unsigned kept = flags & ~static_cast<unsigned>(cudaDeviceMapHost);
  if (version() < 11000) {
    if (ctx.active) return fail(cudaErrorSetOnActiveProcess);
    ctx.flags = kept;
    return cudaSuccess;
  }
  ctx.flags = kept;
  ensure_context(current_device());
  return cudaSuccess;
}

cudaError_t cudaGetDeviceFlags(unsigned int* flags) {
  Guard lock(api_lock());
  if (flags == nullptr) return fail(cudaErrorInvalidValue);
  const PrimaryContext& ctx = primary_context(current_device());
  // "Flags returned by this function may specifically include
  // cudaDeviceMapHost even though it is not accepted by cudaSetDeviceFlags".
  *flags = ctx.flags | (ctx.active ? static_cast<unsigned>(cudaDeviceMapHost) : 0u);
  return cudaSuccess;
}

cudaError_t cudaDeviceReset(void) {
  Guard lock(api_lock());
  destroy_context(current_device());
  return cudaSuccess;
}

cudaError_t cudaDeviceSynchronize(void) {
  Guard lock(api_lock());
  EDP_SIM_FAULT("cudaDeviceSynchronize");
  ensure_context(current_device());
  drain_device(current_device());
  return cudaSuccess;
}

cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int device) {
  Guard lock(api_lock());
  EDP_SIM_FAULT("cudaGetDeviceProperties");
  if (prop == nullptr) return fail(cudaErrorInvalidValue);
  if (!valid_device(device)) return fail(cudaErrorInvalidDevice);
  fill_properties(prop);
  return cudaSuccess;
}

cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int device) {
  if (value == nullptr) return fail(cudaErrorInvalidValue);
  if (!valid_device(device)) return fail(cudaErrorInvalidDevice);
  cudaDeviceProp p;
  fill_properties(&p);
  switch (attr) {
    case cudaDevAttrMaxThreadsPerBlock:
      *value = p.maxThreadsPerBlock;
      break;
    case cudaDevAttrMaxBlockDimX:
      *value = p.maxThreadsDim[0];
      break;
    case cudaDevAttrMaxGridDimX:
      *value = p.maxGridSize[0];
      break;
    case cudaDevAttrMaxSharedMemoryPerBlock:
      *value = static_cast<int>(p.sharedMemPerBlock);
      break;
    case cudaDevAttrWarpSize:
      *value = p.warpSize;
      break;
    case cudaDevAttrClockRate:
      *value = DeviceLimits::kClockKhz;
      break;
    case cudaDevAttrMultiProcessorCount:
      *value = p.multiProcessorCount;
      break;
    case cudaDevAttrIntegrated:
      *value = p.integrated;
      break;
    case cudaDevAttrMemoryClockRate:
      *value = DeviceLimits::kMemoryClockKhz;
      break;
    case cudaDevAttrGlobalMemoryBusWidth:
      *value = p.memoryBusWidth;
      break;
    case cudaDevAttrL2CacheSize:
      *value = p.l2CacheSize;
      break;
    case cudaDevAttrMaxThreadsPerMultiProcessor:
      *value = p.maxThreadsPerMultiProcessor;
      break;
    case cudaDevAttrComputeCapabilityMajor:
      *value = p.major;
      break;
    case cudaDevAttrComputeCapabilityMinor:
      *value = p.minor;
      break;
    case cudaDevAttrMaxRegistersPerMultiprocessor:
      *value = p.regsPerMultiprocessor;
      break;
    default:
      return fail(cudaErrorInvalidValue);
  }
  return cudaSuccess;
}

cudaError_t cudaRuntimeGetVersion(int* v) {
  if (v == nullptr) return fail(cudaErrorInvalidValue);
  *v = version();
  return cudaSuccess;
}

cudaError_t cudaDriverGetVersion(int* v) {
  if (v == nullptr) return fail(cudaErrorInvalidValue);
  *v = version();
  return cudaSuccess;
}

cudaError_t cudaMemGetInfo(std::size_t* free_bytes, std::size_t* total_bytes) {
  Guard lock(api_lock());
  if (free_bytes == nullptr || total_bytes == nullptr) return fail(cudaErrorInvalidValue);
  ensure_context(current_device());
  *total_bytes = DeviceLimits::kGlobalBytes;
  *free_bytes = DeviceLimits::kGlobalBytes - used_bytes();
  return cudaSuccess;
}

cudaError_t cudaMalloc(void** ptr, std::size_t size) {
  Guard lock(api_lock());
  EDP_SIM_FAULT("cudaMalloc");
  if (ptr == nullptr) return fail(cudaErrorInvalidValue);
  ensure_context(current_device());
  return fail(allocate_device(current_device(), size, ptr));
}

cudaError_t cudaFree(void* ptr) {
  Guard lock(api_lock());
  EDP_SIM_FAULT("cudaFree");
  ensure_context(current_device());
  if (ptr == nullptr) return cudaSuccess;  // "If devPtr is 0, no operation is performed"
  drain_device(current_device());          // cudaFree synchronises the device
  if (!free_device(ptr)) {
    diagnose("cudaFree(%p): not the start of a live allocation", ptr);
    return fail(cudaErrorInvalidValue);
  }
  return cudaSuccess;
}

cudaError_t cudaMemcpy(void* dst, const void* src, std::size_t count, cudaMemcpyKind kind) {
  Guard lock(api_lock());
  EDP_SIM_FAULT("cudaMemcpy");
  ensure_context(current_device());
  const cudaError_t e = check_copy("cudaMemcpy", dst, src, count, kind);
  if (e != cudaSuccess) return fail(e);
  // Synchronous, on the legacy stream.
  drain_stream(nullptr);
  if (count > 0) std::memmove(dst, src, count);
  return cudaSuccess;
}

cudaError_t cudaMemcpyAsync(void* dst, const void* src, std::size_t count, cudaMemcpyKind kind,
                            cudaStream_t stream) {
  Guard lock(api_lock());
  EDP_SIM_FAULT("cudaMemcpyAsync");
  if (!valid_stream(stream)) return fail(cudaErrorInvalidResourceHandle);
  const cudaError_t e = check_copy("cudaMemcpyAsync", dst, src, count, kind);
  if (e != cudaSuccess) return fail(e);
  if (count == 0) return cudaSuccess;
  const bool dst_device = is_device_pointer(dst);
  const bool src_device = is_device_pointer(src);
  if (!src_device) {
    // CUDA Runtime API, "API synchronization behavior", asynchronous memcpy:
    // "If pageable memory must first be staged to pinned memory, the driver
    // may synchronize with the stream and stage the copy into pinned memory."
    // Every host buffer here is pageable: the stream's queued work runs first
    // (so an upload is a synchronisation point, as on a GPU, and queued work
    // cannot read data uploaded after it), the source is staged at the call
    // (the caller may reuse it), and the device-side copy stays queued (nothing
    // says the DMA has finished when the call returns).
    drain_stream(stream);
    auto staged = std::make_shared<std::string>(static_cast<const char*>(src), count);
    return fail(enqueue(stream, "cudaMemcpyAsync HtoD",
                        [dst, staged]() { std::memcpy(dst, staged->data(), staged->size()); }));
  }
  const cudaError_t q =
      enqueue(stream, dst_device ? "cudaMemcpyAsync DtoD" : "cudaMemcpyAsync DtoH",
              [dst, src, count]() { std::memmove(dst, src, count); });
  if (q != cudaSuccess) return fail(q);
  // "For transfers from device memory to pageable host memory, the function
  // will return only once the copy has completed."
  if (!dst_device) drain_stream(stream);
  return cudaSuccess;
}

cudaError_t cudaMemset(void* ptr, int value, std::size_t count) {
  Guard lock(api_lock());
  EDP_SIM_FAULT("cudaMemset");
  ensure_context(current_device());
  if (count == 0) return cudaSuccess;
  const cudaError_t e = check_device_range("cudaMemset", ptr, count);
  if (e != cudaSuccess) return fail(e);
  drain_stream(nullptr);
  std::memset(ptr, value, count);
  return cudaSuccess;
}

cudaError_t cudaMemsetAsync(void* ptr, int value, std::size_t count, cudaStream_t stream) {
  Guard lock(api_lock());
  EDP_SIM_FAULT("cudaMemsetAsync");
  if (!valid_stream(stream)) return fail(cudaErrorInvalidResourceHandle);
  if (count == 0) return cudaSuccess;
  const cudaError_t e = check_device_range("cudaMemsetAsync", ptr, count);
  if (e != cudaSuccess) return fail(e);
  return fail(enqueue(stream, "cudaMemsetAsync",
                      [ptr, value, count]() { std::memset(ptr, value, count); }));
}

cudaError_t cudaStreamCreate(cudaStream_t* stream) {
  Guard lock(api_lock());
  return fail(create_stream(stream, cudaStreamDefault));
}

cudaError_t cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned int flags) {
  Guard lock(api_lock());
  EDP_SIM_FAULT("cudaStreamCreateWithFlags");
  return fail(create_stream(stream, flags));
}

cudaError_t cudaStreamDestroy(cudaStream_t stream) {
  Guard lock(api_lock());
  return fail(destroy_stream(stream));
}

cudaError_t cudaStreamSynchronize(cudaStream_t stream) {
  Guard lock(api_lock());
  EDP_SIM_FAULT("cudaStreamSynchronize");
  return fail(drain_stream(stream));
}

cudaError_t cudaStreamQuery(cudaStream_t stream) {
  Guard lock(api_lock());
  return query_stream(stream);  // cudaErrorNotReady is not an error to record
}

cudaError_t cudaEventCreate(cudaEvent_t* event) {
  Guard lock(api_lock());
  EDP_SIM_FAULT("cudaEventCreate");
  return fail(create_event(event, cudaEventDefault));
}

cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned int flags) {
  Guard lock(api_lock());
  EDP_SIM_FAULT("cudaEventCreateWithFlags");
  return fail(create_event(event, flags));
}

cudaError_t cudaEventDestroy(cudaEvent_t event) {
  Guard lock(api_lock());
  return fail(destroy_event(event));
}

cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream) {
  Guard lock(api_lock());
  EDP_SIM_FAULT("cudaEventRecord");
  return fail(record_event(event, stream));
}

cudaError_t cudaEventSynchronize(cudaEvent_t event) {
  Guard lock(api_lock());
  EDP_SIM_FAULT("cudaEventSynchronize");
  return fail(synchronize_event(event));
}

cudaError_t cudaEventQuery(cudaEvent_t event) {
  Guard lock(api_lock());
  return query_event(event);
}

cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end) {
  Guard lock(api_lock());
  EDP_SIM_FAULT("cudaEventElapsedTime");
  return fail(elapsed_ms(ms, start, end));
}

cudaError_t cudaFuncGetAttributes(cudaFuncAttributes* attr, const void* func) {
  Guard lock(api_lock());
  if (attr == nullptr || func == nullptr) return fail(cudaErrorInvalidDeviceFunction);
  ensure_context(current_device());
  std::memset(attr, 0, sizeof *attr);
  attr->maxThreadsPerBlock = DeviceLimits::kMaxThreadsPerBlock;
  attr->ptxVersion = DeviceLimits::kMajor * 10 + DeviceLimits::kMinor;
  attr->binaryVersion = attr->ptxVersion;
  return cudaSuccess;
}

// Without registers or static shared memory to go by, occupancy is bounded by
// threads and blocks per SM only (device_limits.h).
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* blocks, const void* func,
                                                          int block_size,
                                                          std::size_t dynamic_smem_bytes) {
  if (blocks == nullptr || func == nullptr || block_size <= 0 ||
      block_size > DeviceLimits::kMaxThreadsPerBlock) {
    return fail(cudaErrorInvalidValue);
  }
  int by_threads = DeviceLimits::kMaxThreadsPerSm / block_size;
  if (dynamic_smem_bytes > 0) {
    const int by_shared = static_cast<int>(64 * 1024 / dynamic_smem_bytes);
    if (by_shared < by_threads) by_threads = by_shared;
  }
  *blocks = by_threads < DeviceLimits::kMaxBlocksPerSm ? by_threads : DeviceLimits::kMaxBlocksPerSm;
  return cudaSuccess;
}

}  // extern "C"
