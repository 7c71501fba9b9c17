// GPU simulator: streams and events (see fake_stream.h).
#include "fake_stream.h"

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <deque>
#include <map>
#include <memory>
#include <set>

#include "device_limits.h"
#include "edp_sim/control.h"
#include "edp_sim/device.h"
#include "fake_memory.h"
#include "fake_state.h"
#include "simt_block.h"

namespace edp_sim {

namespace {

struct Op {
  std::string name;
  std::function<void()> run;
  std::uint64_t sequence = 0;
};

struct Stream {
  int device = 0;
  unsigned flags = 0;
  bool legacy = false;
  std::deque<Op> queue;
};

struct Event {
  int device = 0;
  unsigned flags = 0;
  bool recorded = false;
  bool completed = false;
  Stream* stream = nullptr;  // where it was last recorded
  double time_s = 0.0;
};

std::set<Stream*>& streams() {
  // Never destroyed: device state outlives every static destructor (and
  // LeakSanitizer, which runs after them, still sees it reachable).
  static auto* s = new std::set<Stream*>;
  return *s;
}
std::set<Event*>& events() {
  // Never destroyed: device state outlives every static destructor (and
  // LeakSanitizer, which runs after them, still sees it reachable).
  static auto* e = new std::set<Event*>;
  return *e;
}
Stream* legacy(int device) {
  // Never destroyed: device state outlives every static destructor (and
  // LeakSanitizer, which runs after them, still sees it reachable).
  static auto* l = new std::map<int, Stream*>;
  Stream*& s = (*l)[device];
  if (s == nullptr) {
    s = new Stream;  // lives as long as the process, like the device
    s->device = device;
    s->legacy = true;
    streams().insert(s);
  }
  return s;
}
std::string g_last = "nothing yet";
std::uint64_t g_sequence = 0;

Stream* resolve(cudaStream_t handle) {
  if (handle == nullptr) return legacy(current_device());
  Stream* s = reinterpret_cast<Stream*>(handle);
  return streams().count(s) ? s : nullptr;
}

// Runs the operation at the front of `s`, then checks the slack guards.
void run_front(Stream* s) {
  Op op = std::move(s->queue.front());
  s->queue.pop_front();
  g_last = op.name;
  op.run();
  settle_guards(oldest_pending_sequence());
  check_guards(op.name);
}

void run_queue(Stream* s) {
  while (!s->queue.empty()) run_front(s);
}

// Stream order with the legacy stream: work on a blocking stream waits for
// the legacy stream, work on the legacy stream for every blocking stream.
void run_dependencies(Stream* s) {
  if (s->legacy) {
    for (Stream* other : streams()) {
      if (other != s && other->device == s->device && !(other->flags & cudaStreamNonBlocking)) {
        run_queue(other);
      }
    }
  } else if (!(s->flags & cudaStreamNonBlocking)) {
    run_queue(legacy(s->device));
  }
}

double now_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace

cudaError_t enqueue(cudaStream_t handle, std::string name, std::function<void()> op) {
  Stream* s = resolve(handle);
  if (s == nullptr) return cudaErrorInvalidResourceHandle;
  ensure_context(s->device);
  s->queue.push_back(Op{std::move(name), std::move(op), ++g_sequence});
  return cudaSuccess;
}

cudaError_t drain_stream(cudaStream_t handle) {
  Stream* s = resolve(handle);
  if (s == nullptr) return cudaErrorInvalidResourceHandle;
  run_dependencies(s);
  run_queue(s);
  return cudaSuccess;
}

void drain_device(int device) {
  for (Stream* s : streams()) {
    if (s->device == device) run_queue(s);
  }
}

bool valid_stream(cudaStream_t handle) { return resolve(handle) != nullptr; }

int stream_device(cudaStream_t handle) {
  Stream* s = resolve(handle);
  return s ? s->device : -1;
}

std::size_t pending_count() {
  std::size_t n = 0;
  for (Stream* s : streams()) n += s->queue.size();
  return n;
}

std::uint64_t last_sequence() { return g_sequence; }

std::uint64_t oldest_pending_sequence() {
  std::uint64_t oldest = UINT64_MAX;
  for (Stream* s : streams()) {
    if (!s->queue.empty() && s->queue.front().sequence < oldest) oldest = s->queue.front().sequence;
  }
  return oldest;
}

cudaError_t create_stream(cudaStream_t* out, unsigned flags) {
  if (out == nullptr || (flags & ~static_cast<unsigned>(cudaStreamNonBlocking)) != 0) {
    return cudaErrorInvalidValue;
  }
  ensure_context(current_device());
  Stream* s = new Stream;
  s->device = current_device();
  s->flags = flags;
  streams().insert(s);
  *out = reinterpret_cast<cudaStream_t>(s);
  return cudaSuccess;
}

cudaError_t destroy_stream(cudaStream_t handle) {
  Stream* s = handle ? resolve(handle) : nullptr;
  if (s == nullptr) return cudaErrorInvalidResourceHandle;
  // "the resources associated with stream will be released automatically once
  // the device has completed all work in stream" (cudaStreamDestroy).
  run_dependencies(s);
  run_queue(s);
  for (Event* e : events()) {
    if (e->stream == s) e->stream = nullptr;
  }
  streams().erase(s);
  delete s;
  return cudaSuccess;
}

cudaError_t query_stream(cudaStream_t handle) {
  Stream* s = resolve(handle);
  if (s == nullptr) return cudaErrorInvalidResourceHandle;
  if (s->queue.empty()) return cudaSuccess;
  run_front(s);
  return s->queue.empty() ? cudaSuccess : cudaErrorNotReady;
}

cudaError_t create_event(cudaEvent_t* out, unsigned flags) {
  const unsigned known = cudaEventBlockingSync | cudaEventDisableTiming | cudaEventInterprocess;
  if (out == nullptr || (flags & ~known) != 0) return cudaErrorInvalidValue;
  // cudaEventInterprocess "must be used with cudaEventDisableTiming".
  if ((flags & cudaEventInterprocess) && !(flags & cudaEventDisableTiming)) {
    return cudaErrorInvalidValue;
  }
  ensure_context(current_device());
  Event* e = new Event;
  e->device = current_device();
  e->flags = flags;
  events().insert(e);
  *out = reinterpret_cast<cudaEvent_t>(e);
  return cudaSuccess;
}

cudaError_t destroy_event(cudaEvent_t handle) {
  Event* e = reinterpret_cast<Event*>(handle);
  if (!events().count(e)) return cudaErrorInvalidResourceHandle;
  events().erase(e);
  delete e;
  return cudaSuccess;
}

cudaError_t record_event(cudaEvent_t handle, cudaStream_t stream) {
  Event* e = reinterpret_cast<Event*>(handle);
  if (!events().count(e)) return cudaErrorInvalidResourceHandle;
  Stream* s = resolve(stream);
  // "event and stream must be on the same CUDA context" (cudaEventRecord).
  if (s == nullptr || s->device != e->device) return cudaErrorInvalidResourceHandle;
  e->recorded = true;
  e->completed = false;
  e->stream = s;
  return enqueue(stream, "cudaEventRecord", [e]() {
    if (!events().count(e)) return;  // destroyed while queued: nothing to mark
    e->completed = true;
    e->time_s = now_s();
  });
}

cudaError_t synchronize_event(cudaEvent_t handle) {
  Event* e = reinterpret_cast<Event*>(handle);
  if (!events().count(e)) return cudaErrorInvalidResourceHandle;
  // "If cudaEventRecord() has not been called on event, cudaSuccess is
  // returned immediately" (cudaEventSynchronize).
  if (!e->recorded || e->completed) return cudaSuccess;
  if (e->stream != nullptr) {
    run_dependencies(e->stream);
    run_queue(e->stream);
  }
  return cudaSuccess;
}

cudaError_t query_event(cudaEvent_t handle) {
  Event* e = reinterpret_cast<Event*>(handle);
  if (!events().count(e)) return cudaErrorInvalidResourceHandle;
  return !e->recorded || e->completed ? cudaSuccess : cudaErrorNotReady;
}

cudaError_t elapsed_ms(float* ms, cudaEvent_t start, cudaEvent_t end) {
  Event* a = reinterpret_cast<Event*>(start);
  Event* b = reinterpret_cast<Event*>(end);
  if (ms == nullptr) return cudaErrorInvalidValue;
  if (!events().count(a) || !events().count(b)) return cudaErrorInvalidResourceHandle;
  // cudaEventElapsedTime: cudaErrorInvalidResourceHandle if either event was
  // not recorded or was created with cudaEventDisableTiming; cudaErrorNotReady
  // if either has not completed yet.
  if (!a->recorded || !b->recorded) return cudaErrorInvalidResourceHandle;
  if ((a->flags | b->flags) & cudaEventDisableTiming) return cudaErrorInvalidResourceHandle;
  if (!a->completed || !b->completed) return cudaErrorNotReady;
  *ms = static_cast<float>((b->time_s - a->time_s) * 1e3);
  return cudaSuccess;
}

void destroy_streams_and_events(int device) {
  for (auto it = streams().begin(); it != streams().end();) {
    Stream* s = *it;
    if (s->device == device && !s->legacy) {
      it = streams().erase(it);
      delete s;
    } else {
      ++it;
    }
  }
  for (auto it = events().begin(); it != events().end();) {
    if ((*it)->device == device) {
      delete *it;
      it = events().erase(it);
    } else {
      ++it;
    }
  }
}

void enqueue_kernel(const char* name, dim3 grid, dim3 block, std::size_t shared_bytes,
                    cudaStream_t stream, std::function<void()> body, SharedRegion shared) {
  Guard lock(api_lock());
  if (runtime_fault(std::string("launch:") + name) != cudaSuccess) return;
  // ptxas refuses a kernel whose __shared__ variables exceed the block's
  // shared memory ("uses too much shared data"): a build error, not a launch
  // error, so there is no API result to give. The simulator counts every
  // __shared__ variable of the program (it cannot tell which kernel declares
  // which), an upper bound of the kernel's own.
  if (shared.bytes() > DeviceLimits::kSharedBytesPerBlock) {
    diagnose(
        "kernel %s: the program's __shared__ variables take %zu bytes, more than the %zu a "
        "block may have: nvcc would not compile it (ptxas: uses too much shared data)",
        name, shared.bytes(), DeviceLimits::kSharedBytesPerBlock);
    std::abort();
  }
  // CUDA Runtime API, enum cudaError: cudaErrorInvalidConfiguration "indicates
  // that a kernel launch is requesting resources that can never be satisfied
  // by the current device. Requesting more shared memory per block than the
  // device supports will trigger this error, as will requesting too many
  // threads or blocks." The launch does not happen; cudaGetLastError says so.
  const std::string problem = launch_problem(grid, block, shared.bytes(), shared_bytes);
  if (!problem.empty()) {
    diagnose("kernel %s: launch refused (cudaErrorInvalidConfiguration): %s", name,
             problem.c_str());
    fail(cudaErrorInvalidConfiguration);
    return;
  }
  std::string label = std::string("kernel ") + name;
  const std::string kernel = name;
  const cudaError_t status = enqueue(stream, label, [kernel, grid, block, body, shared]() {
    run_grid(kernel, grid, block, body, shared);
  });
  fail(status);
}

std::size_t pending_operations() {
  Guard lock(api_lock());
  return pending_count();
}

std::string last_operation() {
  Guard lock(api_lock());
  return g_last;
}

}  // namespace edp_sim
