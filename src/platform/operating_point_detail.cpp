// Helpers of the operating-point files: sysfs path names, rate tables, cpufreq
// policies and the safe write order. See operating_point_detail.h.
#include "platform/operating_point_detail.h"

#include <algorithm>
#include <chrono>
#include <map>
#include <set>
#include <sstream>

namespace edp::platform::detail {

const char* const kCpuDir = "/sys/devices/system/cpu/cpu";
const char* const kEmcCap = "/sys/kernel/nvpmodel_emc_cap/emc_iso_cap";

std::string cpu_path(int id, const std::string& rest) {
  return kCpuDir + std::to_string(id) + rest;
}

std::string dirname_of(const std::string& path) {
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? "" : path.substr(0, slash);
}

std::string basename_of(const std::string& path) {
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::vector<long> read_longs(const SysfsRoot& root, const std::string& path) {
  std::vector<long> out;
  auto text = root.read(path);
  if (!text) return out;
  std::istringstream in(*text);
  for (std::string w; in >> w;) {
    if (auto v = parse_long(w)) out.push_back(*v);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::vector<std::string> read_words(const SysfsRoot& root, const std::string& path) {
  std::vector<std::string> out;
  auto text = root.read(path);
  if (!text) return out;
  std::istringstream in(*text);
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

std::vector<Policy> read_policies(const SysfsRoot& root, const Platform& p) {
  std::vector<Policy> out;
  std::set<int> seen;
  for (const auto& c : p.cpus) {
    if (seen.count(c.id)) continue;
    std::vector<std::string> words = read_words(root, cpu_path(c.id, "/cpufreq/related_cpus"));
    if (words.empty()) words = read_words(root, cpu_path(c.id, "/cpufreq/affected_cpus"));
    if (words.empty()) continue;
    Policy pol;
    for (const auto& w : words) {
      if (auto v = parse_long(w)) pol.cpus.push_back(static_cast<int>(*v));
    }
    if (std::find(pol.cpus.begin(), pol.cpus.end(), c.id) == pol.cpus.end()) {
      pol.cpus.push_back(c.id);
    }
    std::sort(pol.cpus.begin(), pol.cpus.end());
    for (int id : pol.cpus) seen.insert(id);
    out.push_back(pol);
  }
  return out;
}

bool is_online_file(const std::string& path) { return basename_of(path) == "online"; }
bool is_governor_file(const std::string& path) {
  const std::string b = basename_of(path);
  return b == "scaling_governor" || b == "governor";
}
bool is_min_file(const std::string& path) {
  return basename_of(path).find("min") != std::string::npos;
}

int online_file_cpu(const std::string& path) {
  const std::string prefix = kCpuDir;
  if (path.compare(0, prefix.size(), prefix) != 0 || !is_online_file(path)) return -1;
  const auto v = parse_long(path.substr(prefix.size(), path.size() - prefix.size() - 7));
  return v ? static_cast<int>(*v) : -1;
}

std::string table_next_to(const std::string& path) {
  const std::string dir = dirname_of(path);
  const std::string b = basename_of(path);
  if (b == "scaling_max_freq" || b == "scaling_min_freq")
    return dir + "/scaling_available_frequencies";
  if (b == "max_freq" || b == "min_freq") return dir + "/available_frequencies";
  return "";
}

std::vector<ClockWrite> union_of_files(const std::vector<ResolvedPoint>& points) {
  std::vector<ClockWrite> out;
  std::set<std::string> seen;
  for (const auto& pt : points) {
    for (const auto& w : pt.writes) {
      if (seen.insert(w.path).second) out.push_back(w);
    }
  }
  return out;
}

// CPUs online first, then governors, then each clock directory with the max
// first when the ceiling rises (so min never exceeds max) and the min first
// when it falls, then CPUs offline last.
std::vector<ClockWrite> ordered(const SysfsRoot& root, const std::vector<ClockWrite>& writes) {
  std::vector<ClockWrite> up, gov, clocks, down;
  std::vector<std::string> dirs;
  std::map<std::string, std::vector<ClockWrite>> by_dir;
  for (const auto& w : writes) {
    if (is_online_file(w.path)) {
      (trim(w.value) == "0" ? down : up).push_back(w);
    } else if (is_governor_file(w.path)) {
      gov.push_back(w);
    } else {
      const std::string d = dirname_of(w.path);
      if (!by_dir.count(d)) dirs.push_back(d);
      by_dir[d].push_back(w);
    }
  }
  for (const auto& d : dirs) {
    auto& ws = by_dir[d];
    const ClockWrite* min_w = nullptr;
    const ClockWrite* max_w = nullptr;
    for (const auto& w : ws) (is_min_file(w.path) ? min_w : max_w) = &w;
    bool min_first = false;
    if (min_w && max_w) {
      const auto cur_max = root.read_long(max_w->path);
      const auto new_max = parse_long(max_w->value);
      min_first = cur_max && new_max && *new_max < *cur_max;
    }
    std::stable_sort(ws.begin(), ws.end(), [&](const ClockWrite& a, const ClockWrite& b) {
      return (is_min_file(a.path) == min_first) && (is_min_file(b.path) != min_first);
    });
    clocks.insert(clocks.end(), ws.begin(), ws.end());
  }
  std::vector<ClockWrite> out = up;
  out.insert(out.end(), gov.begin(), gov.end());
  out.insert(out.end(), clocks.begin(), clocks.end());
  out.insert(out.end(), down.begin(), down.end());
  return out;
}

double now_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace edp::platform::detail
