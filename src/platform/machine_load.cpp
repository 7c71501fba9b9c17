// See machine_load.h.
#include "platform/machine_load.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <sstream>
#include <thread>

#include "platform/cpu_activity.h"

namespace edp::platform {
namespace {

bool is_pid(const std::string& s) {
  return !s.empty() && s.size() <= 10 &&
         std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

std::map<long, std::pair<std::string, unsigned long long>> read_processes(const SysfsRoot& root) {
  std::map<long, std::pair<std::string, unsigned long long>> out;
  for (const auto& name : root.list("/proc")) {
    if (!is_pid(name)) continue;
    const auto text = root.read("/proc/" + name + "/stat");
    std::string comm;
    unsigned long long ticks = 0;
    if (text && parse_pid_stat(*text, &comm, &ticks)) out[std::stol(name)] = {comm, ticks};
  }
  return out;
}

}  // namespace

bool parse_pid_stat(const std::string& text, std::string* comm, unsigned long long* cpu_ticks) {
  const auto open = text.find('(');
  const auto close = text.rfind(')');
  if (open == std::string::npos || close == std::string::npos || close < open) return false;
  std::string name = text.substr(open + 1, close - open - 1);
  if (name.size() > 64) name.resize(64);
  for (char& c : name)
    if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7f) c = '?';
  std::istringstream rest(text.substr(close + 1));
  std::string field;
  unsigned long long utime = 0, stime = 0;
  // After ')': field 3 (state) is index 0, utime (14) index 11, stime (15) index 12.
  for (int i = 0; i <= 12; ++i) {
    if (!(rest >> field)) return false;
    if (i == 11 || i == 12) {
      if (field.empty() || field.size() > 19 ||
          !std::all_of(field.begin(), field.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return false;
      (i == 11 ? utime : stime) = std::stoull(field);
    }
  }
  *comm = name;
  *cpu_ticks = utime + stime;
  return true;
}

MachineLoad sample_machine_load(const SysfsRoot& root, double seconds, size_t top_n) {
  MachineLoad load;
  const double hz = std::max(1L, ::sysconf(_SC_CLK_TCK)) * 1.0;
  const auto stat0 = root.read("/proc/stat");
  const auto procs0 = read_processes(root);
  const auto t0 = std::chrono::steady_clock::now();
  std::this_thread::sleep_for(std::chrono::duration<double>(seconds));
  const auto stat1 = root.read("/proc/stat");
  const auto procs1 = read_processes(root);
  load.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (!stat0 || !stat1) return load;
  const auto m0 = parse_proc_stat(*stat0), m1 = parse_proc_stat(*stat1);
  if (!m0 || !m1 || m1->busy < m0->busy || load.wall_s <= 0) return load;
  load.known = true;
  load.cpus = m1->cpus;
  const long self = ::getpid();
  double ours_s = 0;
  for (const auto& [pid, p1] : procs1) {
    const auto it = procs0.find(pid);
    if (it == procs0.end() || p1.second < it->second.second) continue;
    const double used_s = (p1.second - it->second.second) / hz;
    if (pid == self) {
      ours_s = used_s;
      continue;
    }
    if (used_s > 0) load.top.push_back({pid, p1.first, used_s / load.wall_s});
  }
  const double busy_s = (m1->busy - m0->busy) / hz;
  load.others_cpu_share =
      std::min(1.0, std::max(0.0, busy_s - ours_s) / (load.wall_s * std::max(1, load.cpus)));
  std::sort(load.top.begin(), load.top.end(),
            [](const BusyProcess& a, const BusyProcess& b) { return a.cpus_used > b.cpus_used; });
  if (load.top.size() > top_n) load.top.resize(top_n);
  return load;
}

std::string busy_warning(const MachineLoad& load) {
  if (!load.known || load.others_cpu_share <= kBusyMachineShare) return "";
  char head[160];
  std::snprintf(head, sizeof head,
                "the machine is busy: other processes used %.0f%% of its %d CPUs over %.1f s",
                100 * load.others_cpu_share, load.cpus, load.wall_s);
  std::string out = head;
  if (!load.top.empty()) {
    out += " (";
    for (size_t i = 0; i < load.top.size(); ++i) {
      char item[120];
      std::snprintf(item, sizeof item, "%s%s pid %ld: %.0f%% of a CPU", i ? ", " : "",
                    load.top[i].name.c_str(), load.top[i].pid, 100 * load.top[i].cpus_used);
      out += item;
    }
    out += ")";
  }
  out += "; runs measured now include their work and are flagged `disturbed` where it shows";
  return out;
}

}  // namespace edp::platform
