// Backends as the workload tests use them, and a tensor's values on the host.
#pragma once

#include <memory>
#include <vector>

#include "workloads/cpu_backend.h"

namespace edp::testing {

// The CPU backend the workload tests compare against the reference: two
// threads, Eigen's GEMM (the same choice on every machine).
inline std::unique_ptr<Backend> cpu2() {
  CpuOptions o;
  o.threads = 2;
  o.gemm = "eigen";
  return make_cpu_backend(o);
}

// The values of `t`, copied to the host.
inline std::vector<float> fetch(Backend& b, const Tensor& t) {
  std::vector<float> host(static_cast<std::size_t>(t.numel()));
  b.download(t, host.data());
  return host;
}

}  // namespace edp::testing
