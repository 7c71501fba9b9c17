// The clocks a run record reports at its start and end (DESIGN §3), read
// from a platform snapshot.
#pragma once

#include <vector>

#include "platform/platform.h"

namespace edp::bench {

// Mean current clock of `cpus` (all CPUs when empty), MHz; NaN if unknown.
double cpu_mhz(const platform::Platform& p, const platform::Snapshot& s,
               const std::vector<int>& cpus);
// The GPU's current clock, MHz; NaN if unknown.
double gpu_mhz(const platform::Snapshot& s);

}  // namespace edp::bench
