// Is the machine already busy before a sweep starts? (DESIGN §3,
// "Interference".) `plan` and `run` sample the CPU use of everything else for
// a moment and warn, naming the busiest processes, so that an operator knows
// before the first run that the numbers would include a neighbour.
#pragma once

#include <string>
#include <vector>

#include "platform/sysfs.h"

namespace edp::platform {

struct BusyProcess {
  long pid = 0;
  std::string name;      // /proc/PID/stat's comm, non-printable bytes replaced
  double cpus_used = 0;  // CPU time / wall time: 1.0 = one whole CPU
};

struct MachineLoad {
  bool known = false;  // /proc/stat was readable twice
  double wall_s = 0;
  int cpus = 0;
  double others_cpu_share = 0;   // of the whole machine: 0 idle .. 1 every CPU busy
  std::vector<BusyProcess> top;  // at most top_n, busiest first, this process left out
};

// Above this share of the machine, used by others, a sweep's numbers are
// suspect: a 2-CPU board with one busy neighbour is at 0.5.
inline constexpr double kBusyMachineShare = 0.10;

// Samples /proc/stat and every /proc/PID/stat over `seconds`; keeps the
// `top_n` busiest processes.
MachineLoad sample_machine_load(const SysfsRoot& root, double seconds, size_t top_n = 3);

// Parses /proc/PID/stat: comm (between the first '(' and the last ')') and
// utime + stime in ticks (fields 14 and 15, proc(5)). False when malformed.
bool parse_pid_stat(const std::string& text, std::string* comm, unsigned long long* cpu_ticks);

// "" when not busy (or unknown); otherwise a one-line warning.
std::string busy_warning(const MachineLoad& load);

}  // namespace edp::platform
