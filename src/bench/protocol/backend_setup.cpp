#include "bench/protocol/backend_setup.h"

#include <pthread.h>
#include <sched.h>

#include <algorithm>

#include <cstring>
#include <stdexcept>
#include <utility>

#include "platform/cpu_list.h"
#include "workloads/cpu_backend.h"
#include "workloads/cuda_factory.h"
#include "workloads/reference_backend.h"

namespace edp::bench {

namespace {

std::vector<int> cpus_of(const cpu_set_t& set) {
  std::vector<int> out;
  for (int c = 0; c < CPU_SETSIZE; ++c)
    if (CPU_ISSET(c, &set)) out.push_back(c);
  return out;
}

}  // namespace

ThreadAffinityGuard ThreadAffinityGuard::save() {
  ThreadAffinityGuard g;
  CPU_ZERO(&g.saved_);
  if (const int err = ::pthread_getaffinity_np(::pthread_self(), sizeof(g.saved_), &g.saved_)) {
    throw std::runtime_error(std::string("cannot read the calling thread's CPU affinity: ") +
                             std::strerror(err));
  }
  g.engaged_ = true;
  return g;
}

ThreadAffinityGuard::~ThreadAffinityGuard() { restore(); }

ThreadAffinityGuard::ThreadAffinityGuard(ThreadAffinityGuard&& other) noexcept
    : engaged_(other.engaged_), saved_(other.saved_) {
  other.engaged_ = false;
}

ThreadAffinityGuard& ThreadAffinityGuard::operator=(ThreadAffinityGuard&& other) noexcept {
  if (this != &other) {
    restore();
    engaged_ = other.engaged_;
    saved_ = other.saved_;
    other.engaged_ = false;
  }
  return *this;
}

void ThreadAffinityGuard::restore() {
  if (!engaged_) return;
  engaged_ = false;
  // Cannot fail for a set the thread had before (a CPU going offline meanwhile
  // is dropped by the kernel); nothing useful to do from a destructor anyway.
  (void)::pthread_setaffinity_np(::pthread_self(), sizeof(saved_), &saved_);
}

LaunchPinning pin_launch_thread(int sampler_cpu) {
  LaunchPinning out;
  cpu_set_t now;
  CPU_ZERO(&now);
  if (const int err = ::pthread_getaffinity_np(::pthread_self(), sizeof(now), &now)) {
    throw std::runtime_error(std::string("cannot read the launching thread's CPU affinity: ") +
                             std::strerror(err));
  }
  out.cpus = cpus_of(now);
  const std::string all = platform::format_cpu_list(out.cpus);
  if (sampler_cpu < 0) {
    out.note = all + " (not pinned: power.sampler_cpu is not set)";
    return out;
  }
  const std::string sampler = std::to_string(sampler_cpu);
  if (sampler_cpu >= CPU_SETSIZE || !CPU_ISSET(sampler_cpu, &now)) {
    out.note = all + " (not pinned: sampler CPU " + sampler + " is not among them)";
    return out;
  }
  if (out.cpus.size() < 2) {
    out.note = all + " (not pinned: sampler CPU " + sampler + " is the only CPU allowed)";
    return out;
  }
  cpu_set_t pinned = now;
  CPU_CLR(sampler_cpu, &pinned);
  out.guard = ThreadAffinityGuard::save();
  if (const int err = ::pthread_setaffinity_np(::pthread_self(), sizeof(pinned), &pinned)) {
    throw std::runtime_error("cannot pin the GPU launching thread to CPUs " +
                             platform::format_cpu_list(cpus_of(pinned)) + ": " +
                             std::strerror(err));
  }
  out.cpus = cpus_of(pinned);
  out.note =
      platform::format_cpu_list(out.cpus) + " (pinned: sampler CPU " + sampler + " excluded)";
  return out;
}

BackendSetup make_backend_for(const DeviceSpec& dev, const Config& cfg,
                              const platform::Platform& platform) {
  BackendSetup out;
  if (dev.kind == "reference") {
    out.backend = make_reference_backend();
    out.threads = 1;
    return out;
  }
  if (dev.kind == "host") {  // measure -- CMD: the work runs in the command, not on a backend
    out.backend = make_reference_backend();
    return out;
  }
  if (dev.kind == "gpu") {
    const std::string why = cuda_unavailable_reason(dev.index);
    if (!why.empty()) {
      out.skip_reason = "gpu " + std::to_string(dev.index) + " unavailable: " + why;
      return out;
    }
    // Pinned before the backend makes the CUDA context, so the driver's
    // threads inherit the mask too; `out` restores it if the backend throws.
    LaunchPinning pin = pin_launch_thread(cfg.power.sampler_cpu);
    out.affinity = std::move(pin.guard);
    out.cpus = pin.cpus;
    CudaOptions o;
    o.device_index = dev.index;
    o.relu = cfg.gpu.relu;
    o.sync = cfg.gpu.sync;
    o.host_thread_cpus = pin.note;
    out.backend = make_cuda_backend(o);
    return out;
  }
  CpuOptions o;
  o.cpus = platform::resolve_cpu_set(platform, dev.cpus);
  if (dev.cpus == "all") {
    // "all" means every CPU this process may run on: a cgroup cpuset,
    // taskset or systemd's AllowedCPUs can hold back some online CPUs.
    const std::vector<int> allowed = platform::allowed_cpus();
    std::vector<int> usable;
    for (int c : o.cpus)
      if (std::binary_search(allowed.begin(), allowed.end(), c)) usable.push_back(c);
    if (!usable.empty()) o.cpus = usable;
  }
  o.threads = dev.threads;
  o.gemm = dev.gemm;
  out.cpus = o.cpus;
  out.threads = o.threads > 0 ? o.threads : static_cast<int>(o.cpus.size());
  out.backend = make_cpu_backend(o);
  return out;
}

}  // namespace edp::bench
