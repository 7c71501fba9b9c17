// GPU simulator: the process-wide state of the fake CUDA stack: one lock for
// every API call, the selected CUDA version, each device's primary context
// (exists or not, flags), the calling thread's current device and last error.
#pragma once

#include <cstdio>
#include <mutex>
#include <string>

#include "cuda_runtime_api.h"

namespace edp_sim {

std::recursive_mutex& api_lock();
using Guard = std::lock_guard<std::recursive_mutex>;

int version();  // cudaRuntimeGetVersion encoding

struct PrimaryContext {
  bool active = false;
  unsigned flags = 0;  // CU_CTX_SCHED_* / cudaDeviceSchedule* bits
};
PrimaryContext& primary_context(int device);
bool valid_device(int device);

// The calling thread's device (0 until cudaSetDevice).
int current_device();
void set_current_device(int device);

// Creates the primary context of `device` if it does not exist ("runtime
// initialisation": the first call that needs a context).
void ensure_context(int device);
// cudaDeviceReset: executes queued work, frees the device's memory, destroys
// its streams, events and library handles, and the context.
void destroy_context(int device);

// Adds a failed call to the API error log (edp_sim::api_errors()).
void note_api_error(const char* api, int code);

// Records `status` as the thread's last error (cudaGetLastError) and returns it.
cudaError_t fail(cudaError_t status);
// An injected fault of the runtime call (or "launch:<kernel>") `call`: its
// code, which becomes the thread's last error; cudaSuccess when none.
cudaError_t runtime_fault(const std::string& call);
cudaError_t take_last_error();
cudaError_t peek_last_error();

// Whether an injected fault (edp_sim::inject_fault) claims this call of
// `call`; if so, its code is in *code and the failure is in the API error
// log. Runtime calls also make it the thread's last error through fail().
bool injected_fault(const std::string& call, int* code);

// One line on stderr explaining a refused call ("edpbench GPU simulator: ...").
void diagnose(const char* format, ...) __attribute__((format(printf, 1, 2)));

}  // namespace edp_sim
