// Turns a config device entry into a backend: resolves the CPU set on this
// platform, picks the GEMM path, or explains why a GPU entry is skipped.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "bench/config.h"
#include "platform/platform.h"
#include "workloads/backend.h"

namespace edp::bench {

struct BackendSetup {
  std::unique_ptr<Backend> backend;  // null when skipped
  std::string skip_reason;
  int threads = 0;        // CPU worker threads (1 for reference, 0 for gpu)
  std::vector<int> cpus;  // the CPU set the workers are pinned to
};

// Throws UsageError for a CPU set this platform does not have, and
// std::runtime_error for a backend that fails to start.
BackendSetup make_backend_for(const DeviceSpec& dev, const Config& cfg,
                              const platform::Platform& platform);

}  // namespace edp::bench
