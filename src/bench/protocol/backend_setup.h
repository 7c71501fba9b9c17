// Turns a config device entry into a backend: resolves the CPU set on this
// platform, picks the GEMM path, or explains why a GPU entry is skipped.
#pragma once

#include <sched.h>

#include <memory>
#include <string>
#include <vector>

#include "bench/config/config.h"
#include "platform/platform.h"
#include "workloads/backend.h"

namespace edp::bench {

// Restores the calling thread's CPU affinity, as it was when the guard was
// made, when the guard is destroyed (on the thread that destroys it, which
// must be the one that was pinned). Move-only; an empty guard does nothing.
class ThreadAffinityGuard {
 public:
  ThreadAffinityGuard() = default;
  // Saves the calling thread's affinity; throws std::runtime_error if it
  // cannot be read.
  static ThreadAffinityGuard save();
  ~ThreadAffinityGuard();
  ThreadAffinityGuard(ThreadAffinityGuard&& other) noexcept;
  ThreadAffinityGuard& operator=(ThreadAffinityGuard&& other) noexcept;
  ThreadAffinityGuard(const ThreadAffinityGuard&) = delete;
  ThreadAffinityGuard& operator=(const ThreadAffinityGuard&) = delete;

  bool engaged() const { return engaged_; }
  // Puts the saved affinity back now (the destructor then does nothing).
  void restore();

 private:
  bool engaged_ = false;
  cpu_set_t saved_{};
};

// The CPUs a GPU configuration's launching thread runs on.
struct LaunchPinning {
  ThreadAffinityGuard guard;  // engaged when the thread was pinned
  std::vector<int> cpus;      // the thread's CPUs after pinning (or as they were)
  std::string note;           // how they were chosen, for describe()
};

// Pins the calling thread to the CPUs it may use now, minus `sampler_cpu`,
// so the thread that launches GPU work and waits for it (and the CUDA
// driver's threads, which inherit its affinity when the context is created)
// never competes with the power sampler. Leaves the thread alone when
// sampler_cpu < 0, when sampler_cpu is not among its CPUs, or when it is the
// only one. Throws std::runtime_error if the affinity cannot be read or set.
LaunchPinning pin_launch_thread(int sampler_cpu);

struct BackendSetup {
  // Declared first, so it is destroyed last: the calling thread gets its
  // CPUs back after the backend (whose destructor still waits for the GPU).
  ThreadAffinityGuard affinity;
  std::unique_ptr<Backend> backend;  // null when skipped
  std::string skip_reason;
  int threads = 0;  // CPU worker threads (1 for reference, 0 for gpu)
  // cpu: the CPU set the workers are pinned to; gpu: the CPUs of the
  // launching thread (pin_launch_thread).
  std::vector<int> cpus;
};

// Throws UsageError for a CPU set this platform does not have, and
// std::runtime_error for a backend that fails to start. For a gpu device the
// calling thread is pinned away from power.sampler_cpu until the BackendSetup
// is destroyed (see pin_launch_thread); destroy it on the calling thread.
BackendSetup make_backend_for(const DeviceSpec& dev, const Config& cfg,
                              const platform::Platform& platform);

}  // namespace edp::bench
