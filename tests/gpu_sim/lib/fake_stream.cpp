// GPU simulator: streams and events (see fake_stream.h).
#include "fake_stream.h"

#include <chrono>
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

Stream* resolve(cudaStream_t handle) {
  if (handle == nullptr) return legacy(current_device());
  Stream* s = reinterpret_cast<Stream*>(handle);
  return streams().count(s) ? s : nullptr;
}

void run_queue(Stream* s) {
  while (!s->queue.empty()) {
    Op op = std::move(s->queue.front());
    s->queue.pop_front();
    g_last = op.name;
    op.run();
    check_guards(op.name);
  }
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
  s->queue.push_back(Op{std::move(name), std::move(op)});
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
  Op op = std::move(s->queue.front());
  s->queue.pop_front();
  g_last = op.name;
  op.run();
  check_guards(op.name);
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
                    cudaStream_t stream, std::function<void()> body) {
  Guard lock(api_lock());
  check_launch_limits(name, grid, block, shared_bytes);
  std::string label = std::string("kernel ") + name;
  const std::string kernel = name;
  const cudaError_t status = enqueue(
      stream, label, [kernel, grid, block, body]() { run_grid(kernel, grid, block, body); });
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
