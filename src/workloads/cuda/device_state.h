// Process-wide state of the CUDA devices, kept apart from any one backend:
//  - the primary context as the driver sees it, read without creating one;
//  - who uses a device's primary context now (live backends, and pools whose
//    tensors outlive their backend), and with which host-wait mode;
//  - the host-wait modes of gpu.sync (block | yield | spin) as device flags.
// Host code only (C++17), never included by a .cu file.
#pragma once

#include <memory>
#include <string>

namespace edp {
namespace cuda {

// ---- host wait (gpu.sync) -------------------------------------------------------

// cudaDeviceScheduleBlockingSync for "block", cudaDeviceScheduleYield for
// "yield", cudaDeviceScheduleSpin for "spin"; UsageError for anything else.
unsigned schedule_flag(const std::string& sync);
// The flag's name ("cudaDeviceScheduleBlockingSync", ...), or "0x.." if unknown.
std::string schedule_flag_name(unsigned flag);

// ---- primary context, seen from the driver API ----------------------------------

struct PrimaryContextState {
  bool known = false;   // false: libcuda could not be loaded or asked
  bool active = false;  // the primary context exists now
  unsigned flags = 0;   // its flags (CU_CTX_SCHED_* in the low bits)
};

// cuDevicePrimaryCtxGetState through a dlopen'd libcuda.so.1: creates no
// context, and the binary does not link libcuda, so it still starts on a
// machine without the driver.
PrimaryContextState primary_context_state(int device);

// cuDevicePrimaryCtxSetFlags (CUDA 10.2 entry point) through the same
// libcuda: the flags `device`'s primary context will be created with, set
// before any runtime call touches the device (from CUDA 12 on, cudaSetDevice
// creates the context, so cudaSetDeviceFlags after it comes too late).
struct PrimaryContextFlagsResult {
  bool known = false;           // false: libcuda could not be loaded or has no such entry
  int driver_status = 0;        // CUresult of the call: 0 when set (or not called)
  bool context_active = false;  // it exists already: not set (not even asked when known)
};
PrimaryContextFlagsResult set_primary_context_flags(int device, unsigned flags);

// Makes `previous` the calling thread's device again, unless that would create
// its primary context (it does not exist and the runtime is CUDA 12+); no-op
// for previous < 0 or when it is current already.
void restore_device(int previous);

// Destroys the primary context of `device` (cudaDeviceReset with the device
// current) and leaves the calling thread's current device where no context
// is created by restoring it. Only for when nothing in the process uses it.
void reset_primary_context(int device);

// ---- users of a device -----------------------------------------------------------

// One user of a device's primary context. A backend holds one and shares it
// with its memory pool, so the use ends when the backend and the last tensor
// it made are gone.
class DeviceUse {
 public:
  DeviceUse(int device, std::string sync);
  ~DeviceUse();
  DeviceUse(const DeviceUse&) = delete;
  DeviceUse& operator=(const DeviceUse&) = delete;
  int device() const { return device_; }

 private:
  int device_;
};

// Registers a user of `device` with host-wait mode `sync`. Throws CudaError
// when the device is in use with another mode: one primary context has one
// set of scheduling flags, so two live backends cannot wait differently.
std::shared_ptr<DeviceUse> acquire_device_use(int device, const std::string& sync);

// How many users `device` has now.
int device_users(int device);

}  // namespace cuda
}  // namespace edp
