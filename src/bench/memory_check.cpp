// Sizes against memory (see memory_check.h).
#include "bench/memory_check.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "workloads/mlp_stages.h"
#include "workloads/op_workloads.h"

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

std::vector<std::string> memory_problems(const Config& cfg, const MemoryLimit& limit,
                                         bool gpu_shares_host_memory) {
  std::vector<std::string> out;
  if (limit.bytes < 0) return out;
  auto has = [&](const char* st) {
    return std::find(cfg.studies.begin(), cfg.studies.end(), st) != cfg.studies.end();
  };
  // (study, size with the N it runs at)
  std::vector<std::pair<std::string, SizeSpec>> shapes;
  auto size_named = [&](const std::string& name) -> const SizeSpec* {
    for (const auto& s : cfg.sizes)
      if (s.name == name) return &s;
    return nullptr;
  };
  if (has("mlp"))
    for (const auto& s : cfg.sizes) shapes.push_back({"mlp", s});
  if (has("stages"))
    for (const auto& name : cfg.stages.sizes)
      if (const SizeSpec* s = size_named(name)) shapes.push_back({"stages", *s});
  if (has("batch") && !cfg.batch.n.empty())
    for (const auto& name : cfg.batch.sizes)
      if (const SizeSpec* s = size_named(name)) {
        SizeSpec big = *s;
        big.n = *std::max_element(cfg.batch.n.begin(), cfg.batch.n.end());
        shapes.push_back({"batch", big});
      }
  for (const auto& dev : cfg.devices) {
    if (dev.kind == "gpu" && !gpu_shares_host_memory) continue;  // its own memory: not known here
    for (const auto& [study, s] : shapes)
      for (const auto& w : cfg.workloads) {
        const int64_t need = mlp_item_bytes(w, s);
        if (need <= limit.bytes) continue;
        out.push_back(cfg.at("sizes." + s.name) + ": " + study + " " + w + " size " + s.name +
                      " (N=" + std::to_string(s.n) + ") on " + dev.label + " needs " +
                      std::to_string(need) + " bytes (" + mib(need) + "), more than the " +
                      std::to_string(limit.bytes) + " bytes (" + mib(limit.bytes) +
                      ") this process may use (" + limit.source +
                      "); make the size smaller or free memory");
      }
  }
  // The ops study's square GEMMs (its element-wise working sets are checked
  // by the study itself, study_ops.cpp).
  if (has("ops") && std::find(cfg.ops.ops.begin(), cfg.ops.ops.end(), "gemm") != cfg.ops.ops.end())
    for (const auto& dev : cfg.devices) {
      if (dev.kind == "gpu" && !gpu_shares_host_memory) continue;
      for (int64_t n : cfg.ops.gemm_n) {
        OpSpec spec{"gemm"};
        spec.m = spec.n = spec.k = n;
        const auto need = static_cast<int64_t>(gemm_bytes(spec));
        if (need <= limit.bytes) continue;
        out.push_back(cfg.at("ops.gemm_n") + ": ops gemm n=" + std::to_string(n) + " on " +
                      dev.label + " needs " + std::to_string(need) + " bytes (" + mib(need) +
                      "), more than the " + std::to_string(limit.bytes) + " bytes (" +
                      mib(limit.bytes) + ") this process may use (" + limit.source +
                      "); use a smaller order or free memory");
      }
    }
  return out;
}

}  // namespace edp::bench
