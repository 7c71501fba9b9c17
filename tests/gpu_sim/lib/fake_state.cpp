// GPU simulator: process-wide state (see fake_state.h).
#include "fake_state.h"

#include <cstdarg>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <vector>

#include "device_limits.h"
#include "edp_sim/control.h"
#include "fake_handles.h"
#include "fake_memory.h"
#include "fake_stream.h"

namespace edp_sim {

namespace {
int initial_version() {
  const char* text = std::getenv("EDPBENCH_SIM_CUDA_VERSION");
  if (text == nullptr || *text == '\0') return 11080;
  char* end = nullptr;
  const long v = std::strtol(text, &end, 10);
  if (*end != '\0' || v < 10000 || v > 99999) {
    std::fprintf(stderr,
                 "edpbench GPU simulator: EDPBENCH_SIM_CUDA_VERSION='%s' is not a CUDA version "
                 "in cudaRuntimeGetVersion's encoding (10020, 11080, 12000)\n",
                 text);
    std::exit(2);
  }
  return static_cast<int>(v);
}

int g_version = initial_version();
PrimaryContext g_contexts[DeviceLimits::kDeviceCount];
thread_local int t_device = 0;
thread_local cudaError_t t_last_error = cudaSuccess;
}  // namespace

std::recursive_mutex& api_lock() {
  static std::recursive_mutex m;
  return m;
}

int version() { return g_version; }

bool valid_device(int device) { return device >= 0 && device < DeviceLimits::kDeviceCount; }

PrimaryContext& primary_context(int device) { return g_contexts[device]; }

int current_device() { return t_device; }
void set_current_device(int device) { t_device = device; }

void ensure_context(int device) { g_contexts[device].active = true; }

void destroy_context(int device) {
  drain_device(device);
  destroy_streams_and_events(device);
  destroy_library_handles(device);
  free_device_memory(device);
  g_contexts[device].active = false;
}

namespace {
std::mutex g_api_errors_mutex;
std::vector<ApiError> g_api_errors;

struct Fault {
  std::string call;  // exact, or a prefix when it ends with '*'
  int code = 0;
  int count = 0;
  int skip = 0;
};
std::vector<Fault> g_faults;  // under the API lock

bool matches(const std::string& pattern, const std::string& call) {
  if (!pattern.empty() && pattern.back() == '*') {
    return call.compare(0, pattern.size() - 1, pattern, 0, pattern.size() - 1) == 0;
  }
  return pattern == call;
}
}  // namespace

void inject_fault(const std::string& call, int code, int count, int skip) {
  Guard lock(api_lock());
  if (count > 0) g_faults.push_back(Fault{call, code, count, skip});
}

void clear_faults() {
  Guard lock(api_lock());
  g_faults.clear();
}

int pending_faults() {
  Guard lock(api_lock());
  int n = 0;
  for (const Fault& f : g_faults) n += f.count;
  return n;
}

bool injected_fault(const std::string& call, int* code) {
  Guard lock(api_lock());
  for (auto it = g_faults.begin(); it != g_faults.end(); ++it) {
    if (!matches(it->call, call)) continue;
    if (it->skip > 0) {
      --it->skip;
      return false;
    }
    *code = it->code;
    if (--it->count == 0) g_faults.erase(it);
    note_api_error(call.c_str(), *code);
    return true;
  }
  return false;
}

void note_api_error(const char* api, int code) {
  std::lock_guard<std::mutex> lock(g_api_errors_mutex);
  g_api_errors.push_back(ApiError{api, code});
}

std::vector<ApiError> api_errors() {
  std::lock_guard<std::mutex> lock(g_api_errors_mutex);
  return g_api_errors;
}

void clear_api_errors() {
  std::lock_guard<std::mutex> lock(g_api_errors_mutex);
  g_api_errors.clear();
}

cudaError_t fail(cudaError_t status) {
  if (status != cudaSuccess) {
    t_last_error = status;
    note_api_error("runtime", status);
  }
  return status;
}

cudaError_t runtime_fault(const std::string& call) {
  int code = 0;
  if (!injected_fault(call, &code)) return cudaSuccess;
  t_last_error = static_cast<cudaError_t>(code);
  return t_last_error;
}

cudaError_t take_last_error() {
  const cudaError_t e = t_last_error;
  t_last_error = cudaSuccess;
  return e;
}

cudaError_t peek_last_error() { return t_last_error; }

void diagnose(const char* format, ...) {
  std::fflush(stdout);
  std::fprintf(stderr, "edpbench GPU simulator: ");
  va_list args;
  va_start(args, format);
  std::vfprintf(stderr, format, args);
  va_end(args);
  std::fprintf(stderr, "\n");
}

void set_cuda_version(int v) {
  Guard lock(api_lock());
  reset_all();
  g_version = v;
}

int cuda_version() { return g_version; }

void reset_all() {
  Guard lock(api_lock());
  for (int d = 0; d < DeviceLimits::kDeviceCount; ++d) {
    destroy_context(d);
    g_contexts[d] = PrimaryContext{};
  }
  t_device = 0;
  t_last_error = cudaSuccess;
  g_faults.clear();
}

}  // namespace edp_sim
