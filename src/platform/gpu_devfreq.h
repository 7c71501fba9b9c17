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

// The GPU's rail-gating, as the Tegra GPU driver (nvgpu) states it in sysfs
// on the GPU's device, the parent of its devfreq node: railgate_enable (1 or
// 0), railgate_delay (ms the GPU stays powered once idle: the driver hands it
// to runtime PM as the autosuspend delay, and rail-gates the GPU after it)
// and is_railgated ("yes"/"no"). nvgpu os/linux/sysfs.c creates them
// (railgate_* mode 0744: readable by anyone); gp10b (TX2) starts with a
// 500 ms delay (platform_gp10b_tegra.c, railgate_delay_init). See
// docs/deploy.md.
struct GpuRailgate {
  std::string path;          // the directory holding railgate_delay; "" when none
  int enable = -1;           // 1, 0; -1 when unreadable
  long delay_ms = -1;        // -1 when unreadable
  std::string is_railgated;  // "yes", "no"; "" when unreadable
};
// From the devfreq node `devfreq_path` (Platform::gpu_devfreq_path): its
// `device` link, else its grandparent when it sits in a "devfreq" directory.
GpuRailgate read_gpu_railgate(const SysfsRoot& root, const std::string& devfreq_path);

// EMC clock in Hz from debugfs (root only on L4T); -1 when unreadable.
long read_emc_hz(const SysfsRoot& root);

}  // namespace edp::platform
