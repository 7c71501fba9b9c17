// CPUs: which exist, which are online, which cluster each belongs to, and
// their cpufreq policy.
#pragma once

#include <string>
#include <vector>

#include "platform/platform.h"
#include "platform/sysfs.h"

namespace edp::platform {

// One "processor" block of /proc/cpuinfo.
struct CpuinfoEntry {
  int id = -1;
  int implementer = -1;  // "CPU implementer" (ARM MIDR bits 31:24)
  int part = -1;         // "CPU part" (ARM MIDR bits 15:4)
  std::string model_name;
  std::string vendor_id;  // x86 only ("GenuineIntel", "AuthenticAMD")
};

std::vector<CpuinfoEntry> parse_cpuinfo(const std::string& cpuinfo);

// ARM core name for a MIDR implementer/part pair ("a57", "denver", ...);
// "arm-0x41-0xd99" style for pairs not in the table.
std::string arm_core_name(int implementer, int part);

// Present CPUs with cluster, online state and cpufreq values; sorted by id.
// `soc` lets offline cores of a known heterogeneous SoC keep their cluster.
std::vector<CpuInfo> read_cpus(const SysfsRoot& root, const std::string& soc);

}  // namespace edp::platform
