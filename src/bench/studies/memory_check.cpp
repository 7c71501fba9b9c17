// Sizes against memory (see memory_check.h).
#include "bench/studies/memory_check.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "bench/studies/registry.h"
#include "bench/studies/study.h"
#include "common/errors.h"
#include "workloads/mlp_stages.h"

namespace edp::bench {
namespace {

// A number file of the cgroup interface ("max" or missing: -1).
int64_t read_number(const std::string& path) {
  std::ifstream in(path);
  std::string text;
  if (!(in >> text) || text == "max") return -1;
  try {
    size_t used = 0;
    const long long v = std::stoll(text, &used);
    return used == text.size() && v >= 0 ? v : -1;
  } catch (const std::exception&) {
    return -1;
  }
}

std::string mib(int64_t bytes) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.1f MiB", static_cast<double>(bytes) / (1 << 20));
  return buf;
}

void take(MemoryLimit& m, int64_t bytes, const std::string& source) {
  if (bytes < 0) return;
  if (m.bytes < 0 || bytes < m.bytes) {
    m.bytes = bytes;
    m.source = source;
  }
}

// v1 reports "no limit" as a huge page-aligned number (LONG_MAX rounded down).
constexpr int64_t kV1Unlimited = int64_t{1} << 60;

// The cgroup of this process and its ancestors ("/a/b" -> "/a/b", "/a", "").
std::vector<std::string> ancestors(std::string path) {
  std::vector<std::string> out;
  while (!path.empty() && path != "/") {
    out.push_back(path);
    const auto slash = path.rfind('/');
    path = slash == std::string::npos ? "" : path.substr(0, slash);
  }
  out.push_back("");
  return out;
}

}  // namespace

MemoryLimit memory_limit(const std::string& root) {
  MemoryLimit m;
  {
    std::ifstream in(root + "/proc/meminfo");
    std::string line;
    while (std::getline(in, line)) {
      if (line.rfind("MemAvailable:", 0) != 0) continue;
      std::istringstream ss(line.substr(13));
      long long kb = -1;
      ss >> kb;
      if (kb >= 0) take(m, static_cast<int64_t>(kb) * 1024, "MemAvailable in /proc/meminfo");
    }
  }
  // /proc/self/cgroup: "0::/path" (v2), "N:memory:/path" or "N:cpu,memory:/path" (v1).
  std::ifstream in(root + "/proc/self/cgroup");
  std::string line;
  while (std::getline(in, line)) {
    const auto c1 = line.find(':');
    const auto c2 = c1 == std::string::npos ? c1 : line.find(':', c1 + 1);
    if (c2 == std::string::npos) continue;
    const std::string controllers = line.substr(c1 + 1, c2 - c1 - 1);
    const std::string path = line.substr(c2 + 1);
    const bool v2 = controllers.empty();
    const bool v1 = ("," + controllers + ",").find(",memory,") != std::string::npos;
    if (!v1 && !v2) continue;
    for (const auto& dir : ancestors(path)) {
      const std::string base = root + (v2 ? "/sys/fs/cgroup" : "/sys/fs/cgroup/memory") + dir;
      const int64_t limit = read_number(base + (v2 ? "/memory.max" : "/memory.limit_in_bytes"));
      if (limit < 0 || (v1 && limit >= kV1Unlimited)) continue;
      const int64_t used = std::max<int64_t>(
          0, read_number(base + (v2 ? "/memory.current" : "/memory.usage_in_bytes")));
      take(m, std::max<int64_t>(0, limit - used),
           "cgroup " + (dir.empty() ? std::string("/") : dir) + ": limit " + mib(limit) + " less " +
               mib(used) + " in use");
    }
  }
  return m;
}

int64_t mlp_item_bytes(const std::string& workload, const SizeSpec& s) {
  const auto tensors = mlp_memory_computed(workload, {s.n, s.d_in, s.h, s.d_out});
  double bytes = mlp_memory_total(tensors);
  for (const auto& t : tensors)  // the host copies make_initial_data keeps
    if (t.tensor == "x" || t.tensor == "y" || t.tensor == "w1" || t.tensor == "w2")
      bytes += t.bytes;
  return static_cast<int64_t>(bytes);
}

int64_t run_allowance_bytes(int64_t largest_tensor_bytes) {
  return largest_tensor_bytes > kLargeTensorBytes ? kRunAllowanceLargeBytes : kRunAllowanceBytes;
}

std::vector<MemoryNeed> mlp_memory_needs(const Config& cfg, const std::string& study,
                                         const std::vector<SizeSpec>& shapes) {
  std::vector<MemoryNeed> out;
  for (const auto& s : shapes)
    for (const auto& w : cfg.workloads) {
      double largest = 0;
      for (const auto& t : mlp_memory_computed(w, {s.n, s.d_in, s.h, s.d_out}))
        largest = std::max(largest, t.bytes);
      out.push_back({"sizes." + s.name,
                     study + " " + w + " size " + s.name + " (N=" + std::to_string(s.n) + ")",
                     mlp_item_bytes(w, s), "make the size smaller", static_cast<int64_t>(largest)});
    }
  return out;
}

std::vector<std::string> memory_problems(const Config& cfg, const MemoryLimit& limit,
                                         bool gpu_shares_host_memory) {
  std::vector<std::string> out;
  if (limit.bytes < 0) return out;
  std::vector<MemoryNeed> needs;
  for (const auto& name : cfg.studies) {
    std::unique_ptr<Study> study;
    try {
      study = make_study(name);
    } catch (const UsageError&) {
      continue;  // plan_studies reports it
    }
    for (auto& need : study->memory_needs(cfg)) needs.push_back(std::move(need));
  }
  for (const auto& dev : cfg.devices) {
    if (dev.kind == "gpu" && !gpu_shares_host_memory) continue;  // its own memory: not known here
    for (const auto& need : needs) {
      const int64_t allowance = run_allowance_bytes(need.largest_bytes);
      const int64_t bytes = need.bytes + allowance;
      if (bytes <= limit.bytes) continue;
      out.push_back(cfg.at(need.key) + ": " + need.item + " on " + dev.label + " needs " +
                    std::to_string(bytes) + " bytes (" + mib(bytes) + ": " + mib(need.bytes) +
                    " of tensors and host copies, " + mib(allowance) +
                    " for the run itself), more than the " + std::to_string(limit.bytes) +
                    " bytes (" + mib(limit.bytes) + ") this process may use (" + limit.source +
                    "); " + need.fix + " or free memory");
    }
  }
  return out;
}

}  // namespace edp::bench
