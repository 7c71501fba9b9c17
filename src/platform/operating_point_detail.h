// Internals shared by the operating-point files (resolution, privileges,
// the state file, apply/restore); not part of the public API. See
// operating_point.h for the sysfs files and their kernel documentation.
#pragma once

#include <string>
#include <vector>

#include "common/text.h"
#include "platform/operating_point.h"
#include "platform/sysfs.h"

namespace edp::platform::detail {

extern const char* const kCpuDir;  // "/sys/devices/system/cpu/cpu"
extern const char* const kEmcCap;  // "/sys/kernel/nvpmodel_emc_cap/emc_iso_cap"

std::string cpu_path(int id, const std::string& rest);
std::string dirname_of(const std::string& path);
std::string basename_of(const std::string& path);
// Whitespace-separated integers ("345600 499200 ..."), sorted, unique.
std::vector<long> read_longs(const SysfsRoot& root, const std::string& path);
std::vector<std::string> read_words(const SysfsRoot& root, const std::string& path);

// A cpufreq policy: the CPUs that share one clock (related_cpus).
struct Policy {
  std::vector<int> cpus;
};
std::vector<Policy> read_policies(const SysfsRoot& root, const Platform& p);

bool is_online_file(const std::string& path);
bool is_governor_file(const std::string& path);
bool is_min_file(const std::string& path);
// The CPU id of /sys/devices/system/cpu/cpuN/online, or -1.
int online_file_cpu(const std::string& path);
// The rate table next to a min/max file, if the kernel offers one there.
std::string table_next_to(const std::string& path);
// Every file any of the points writes, first occurrence kept.
std::vector<ClockWrite> union_of_files(const std::vector<ResolvedPoint>& points);

// Safe write order, given the values the files hold now (operating_point.h).
std::vector<ClockWrite> ordered(const SysfsRoot& root, const std::vector<ClockWrite>& writes);

// True when this process is root and `sysfs_root` is the real machine's
// (it resolves to "/").
bool as_root_on_real_board(const std::string& sysfs_root);
// Whether the unprivileged service user could write this real path.
bool writable(const std::string& real);
// `tool` looked up on PATH (or taken as a path when it has a '/'); "" if not.
std::string find_tool(const std::string& tool);
// Runs `tool -m id` with its stdout on our stderr; "" or the failure.
std::string run_tool(const std::string& tool, int id);

double now_s();

}  // namespace edp::platform::detail
