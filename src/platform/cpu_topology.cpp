// CPUs and clusters. /proc/cpuinfo lists only online CPUs, and an offline
// arm64 CPU also loses its regs/identification/midr_el1, so the set of CPUs
// comes from /sys/devices/system/cpu/present and an offline core's cluster
// from what else is known (see cluster_of_offline()).
#include "platform/cpu_topology.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>
#include <stdexcept>

#include "platform/boards.h"
#include "platform/cpu_list.h"

namespace edp::platform {
namespace {

const char* const kCpuRoot = "/sys/devices/system/cpu";

std::string cpu_file(int id, const std::string& leaf) {
  return std::string(kCpuRoot) + "/cpu" + std::to_string(id) + "/" + leaf;
}

int parse_hex_or_dec(const std::string& s) {
  const std::string t = trim(s);
  if (t.empty()) return -1;
  char* end = nullptr;
  const long v = std::strtol(t.c_str(), &end, 0);
  return end == t.c_str() + t.size() ? static_cast<int>(v) : -1;
}

std::vector<int> read_list(const SysfsRoot& root, const std::string& leaf, bool* found) {
  *found = false;
  auto text = root.read_line(std::string(kCpuRoot) + "/" + leaf);
  if (!text) return {};
  try {
    auto cpus = parse_cpu_list(*text);
    *found = true;
    return cpus;
  } catch (const std::invalid_argument&) {
    return {};
  }
}

// CPU ids with a cpuN directory, for trees that lack the `present` file.
std::vector<int> cpu_dirs(const SysfsRoot& root) {
  std::vector<int> ids;
  for (const auto& name : root.list(kCpuRoot)) {
    if (name.size() > 3 && name.compare(0, 3, "cpu") == 0) {
      if (auto id = parse_long(name.substr(3))) ids.push_back(static_cast<int>(*id));
    }
  }
  return ids;
}

}  // namespace

std::vector<CpuinfoEntry> parse_cpuinfo(const std::string& cpuinfo) {
  std::vector<CpuinfoEntry> entries;
  size_t pos = 0;
  while (pos < cpuinfo.size()) {
    size_t nl = cpuinfo.find('\n', pos);
    if (nl == std::string::npos) nl = cpuinfo.size();
    const std::string line = cpuinfo.substr(pos, nl - pos);
    pos = nl + 1;
    const size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    const std::string key = trim(line.substr(0, colon));
    const std::string value = trim(line.substr(colon + 1));
    if (key == "processor") {
      // 32-bit ARM kernels also print "Processor : ARMv7 ..." (capital P).
      auto id = parse_long(value);
      if (!id) continue;
      entries.emplace_back();
      entries.back().id = static_cast<int>(*id);
      continue;
    }
    if (entries.empty()) continue;
    auto& e = entries.back();
    if (key == "CPU implementer") {
      e.implementer = parse_hex_or_dec(value);
    } else if (key == "CPU part") {
      e.part = parse_hex_or_dec(value);
    } else if (key == "model name") {
      e.model_name = value;
    } else if (key == "vendor_id") {
      e.vendor_id = value;
    }
  }
  return entries;
}

std::string arm_core_name(int implementer, int part) {
  // MIDR_EL1 implementer and part numbers from the Arm TRMs and the Linux
  // table in arch/arm64/include/asm/cputype.h.
  static const std::map<std::pair<int, int>, std::string> names = {
      {{0x41, 0xd03}, "a53"},
      {{0x41, 0xd04}, "a35"},
      {{0x41, 0xd05}, "a55"},
      {{0x41, 0xd07}, "a57"},
      {{0x41, 0xd08}, "a72"},
      {{0x41, 0xd09}, "a73"},
      {{0x41, 0xd0a}, "a75"},
      {{0x41, 0xd0b}, "a76"},
      {{0x41, 0xd0c}, "neoverse-n1"},
      {{0x41, 0xd0d}, "a77"},
      {{0x41, 0xd41}, "a78"},
      {{0x41, 0xd42}, "a78ae"},
      {{0x41, 0xd44}, "x1"},
      {{0x41, 0xd46}, "a510"},
      {{0x41, 0xd47}, "a710"},
      {{0x41, 0xd40}, "neoverse-v1"},
      {{0x41, 0xd49}, "neoverse-n2"},
      {{0x41, 0xd4f}, "neoverse-v2"},
      {{0x41, 0xd83}, "neoverse-v3ae"},
      {{0x41, 0xd84}, "neoverse-v3"},
      {{0x4e, 0x003}, "denver"},
      {{0x4e, 0x004}, "carmel"},
  };
  auto it = names.find({implementer, part});
  if (it != names.end()) return it->second;
  char buf[40];
  snprintf(buf, sizeof buf, "arm-0x%02x-0x%03x", implementer & 0xff, part & 0xfff);
  return buf;
}

std::vector<CpuInfo> read_cpus(const SysfsRoot& root, const std::string& soc) {
  std::vector<CpuinfoEntry> info;
  if (auto text = root.read("/proc/cpuinfo")) info = parse_cpuinfo(*text);

  bool have_online = false, have_present = false;
  const std::vector<int> online = read_list(root, "online", &have_online);
  std::vector<int> present = read_list(root, "present", &have_present);
  if (!have_present) present = cpu_dirs(root);

  std::set<int> ids(present.begin(), present.end());
  for (const auto& e : info) ids.insert(e.id);
  for (int id : online) ids.insert(id);

  std::vector<CpuInfo> cpus;
  for (int id : ids) {
    CpuInfo c;
    c.id = id;
    if (have_online) {
      c.online = std::binary_search(online.begin(), online.end(), id);
    } else {
      // Without the online list, trust cpuN/online, then /proc/cpuinfo.
      auto flag = root.read_long(cpu_file(id, "online"));
      c.online = flag ? *flag == 1
                      : std::any_of(info.begin(), info.end(),
                                    [id](const CpuinfoEntry& e) { return e.id == id; });
    }
    auto e =
        std::find_if(info.begin(), info.end(), [id](const CpuinfoEntry& x) { return x.id == id; });
    if (e != info.end()) {
      c.model_name = e->model_name;
      if (e->implementer >= 0 && e->part >= 0) {
        c.cluster = arm_core_name(e->implementer, e->part);
      } else if (!e->vendor_id.empty() || !e->model_name.empty()) {
        c.cluster = "x86";
      }
    }
    if (c.cluster.empty()) {
      // arm64 exposes MIDR_EL1 per online CPU even when cpuinfo was not read.
      if (auto midr = root.read_line(cpu_file(id, "regs/identification/midr_el1"))) {
        const unsigned long v = std::strtoul(midr->c_str(), nullptr, 16);
        if (v != 0) c.cluster = arm_core_name((v >> 24) & 0xff, (v >> 4) & 0xfff);
      }
    }
    const std::string freq = cpu_file(id, "cpufreq/");
    if (auto g = root.read_line(freq + "scaling_governor")) c.governor = *g;
    if (auto v = root.read_long(freq + "scaling_cur_freq")) c.cur_khz = *v;
    if (auto v = root.read_long(freq + "scaling_max_freq")) c.max_khz = *v;
    if (auto v = root.read_long(freq + "cpuinfo_max_freq")) c.hw_max_khz = *v;
    if (auto v = root.read_long(freq + "base_frequency")) c.base_khz = *v;
    cpus.push_back(std::move(c));
  }

  // Offline CPUs: take the SoC's known layout, or the only cluster there is
  // when every known CPU agrees (a homogeneous SoC such as the Nano's).
  std::set<std::string> known;
  for (const auto& c : cpus) {
    if (!c.cluster.empty()) known.insert(c.cluster);
  }
  for (auto& c : cpus) {
    if (!c.cluster.empty()) continue;
    c.cluster = known_cluster(soc, c.id);  // the board table's layout
    if (c.cluster.empty() && known.size() == 1) c.cluster = *known.begin();
  }
  return cpus;
}

}  // namespace edp::platform
