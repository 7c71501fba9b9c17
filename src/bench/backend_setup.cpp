#include "bench/backend_setup.h"

#include <sched.h>

#include "workloads/cpu_backend.h"
#include "workloads/cuda_factory.h"
#include "workloads/reference_backend.h"

namespace edp::bench {

BackendSetup make_backend_for(const DeviceSpec& dev, const Config& cfg,
                              const platform::Platform& platform) {
  BackendSetup out;
  if (dev.kind == "reference") {
    out.backend = make_reference_backend();
    out.threads = 1;
    return out;
  }
  if (dev.kind == "gpu") {
    const std::string why = cuda_unavailable_reason(dev.index);
    if (!why.empty()) {
      out.skip_reason = "gpu " + std::to_string(dev.index) + " unavailable: " + why;
      return out;
    }
    CudaOptions o;
    o.device_index = dev.index;
    o.relu = cfg.gpu.relu;
    out.backend = make_cuda_backend(o);
    return out;
  }
  CpuOptions o;
  o.cpus = platform::resolve_cpu_set(platform, dev.cpus);
  if (dev.cpus == "all") {
    // "all" means every CPU this process may run on: a cgroup cpuset,
    // taskset or systemd's AllowedCPUs can hold back some online CPUs.
    cpu_set_t allowed;
    CPU_ZERO(&allowed);
    if (::sched_getaffinity(0, sizeof(allowed), &allowed) == 0) {
      std::vector<int> usable;
      for (int c : o.cpus)
        if (c < CPU_SETSIZE && CPU_ISSET(c, &allowed)) usable.push_back(c);
      if (!usable.empty()) o.cpus = usable;
    }
  }
  o.threads = dev.threads;
  o.gemm = dev.gemm;
  out.cpus = o.cpus;
  out.threads = o.threads > 0 ? o.threads : static_cast<int>(o.cpus.size());
  out.backend = make_cpu_backend(o);
  return out;
}

}  // namespace edp::bench
