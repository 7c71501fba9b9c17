// The integrated GPU's devfreq node and the EMC (memory) clock.
#pragma once

#include <string>

#include "platform/sysfs.h"

namespace edp::platform {

struct GpuDevfreq {
  std::string path;  // under the root, symlinks resolved; "" when none was found
  std::string governor;
  long cur_hz = -1, max_hz = -1;
};

// True for devfreq device names that are a Tegra GPU: gm20b (TX1/Nano),
// gp10b (TX2), gv11b (Xavier), ga10b (Orin), or any name containing "gpu".
bool is_gpu_devfreq_name(const std::string& name);

// Scans /sys/class/devfreq/*, then the known Tegra paths.
GpuDevfreq find_gpu_devfreq(const SysfsRoot& root);

// EMC clock in Hz from debugfs (root only on L4T); -1 when unreadable.
long read_emc_hz(const SysfsRoot& root);

}  // namespace edp::platform
