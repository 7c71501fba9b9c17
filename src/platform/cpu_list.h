// The kernel's CPU list format ("0,3-5"), used by /sys/devices/system/cpu/
// {online,present,possible} (Documentation/admin-guide/cputopology.rst) and by
// the config's `cpus:` value.
#pragma once

#include <string>
#include <vector>

namespace edp::platform {

// "0,3-5" -> {0,3,4,5}, sorted and without duplicates; "" -> {}. Throws
// std::invalid_argument naming the bad term for anything else ("3-1", "a").
std::vector<int> parse_cpu_list(const std::string& list);
// {0,3,4,5} -> "0,3-5"; the inverse of parse_cpu_list for sorted input.
std::string format_cpu_list(const std::vector<int>& cpus);

// The CPUs the calling thread may run on (sched_getaffinity(2): taskset, a
// cgroup cpuset, systemd's AllowedCPUs), sorted; empty when it cannot be read.
std::vector<int> allowed_cpus();

}  // namespace edp::platform
