// A sweep's checks on this machine (see sweep.h).
#include "bench/sweep.h"

#include "bench/memory_check.h"
#include "common/errors.h"
#include "edpbench/config.h"

namespace edp::bench {

std::string join_rails(const std::vector<std::string>& rails) {
  return rails.empty() ? "(none)" : join(rails, "+");
}

// Usage errors a device entry can only reveal on this machine: a CPU set the
// platform lacks, or a cuDNN ReLU in a build without cuDNN. Each names the
// config's place for the value.
std::vector<std::string> device_problems(const Config& cfg, const platform::Platform& platform) {
  std::vector<std::string> out;
  for (const auto& d : cfg.devices) {
    if (d.kind == "cpu") {
      try {
        platform::resolve_cpu_set(platform, d.cpus);
      } catch (const std::exception& e) {  // UsageError, or no CPUs under the sysfs root
        const std::string key = "devices." + d.label;
        out.push_back(cfg.at(cfg.where.count(key + ".cpus") ? key + ".cpus" : key) + ": device " +
                      d.label + ": " + e.what());
      }
    }
    if (d.kind == "gpu" && cfg.gpu.relu == "cudnn" && EDPBENCH_HAVE_CUDA && !EDPBENCH_HAVE_CUDNN)
      out.push_back(cfg.at("gpu.relu") +
                    ": gpu.relu is cudnn but this build has no cuDNN (install cuDNN and "
                    "reconfigure with -DEDPBENCH_WITH_CUDNN=ON, or use relu: kernel)");
  }
  return out;
}

void validate_devices(const Config& cfg, const platform::Platform& platform) {
  const auto problems = device_problems(cfg, platform);
  if (!problems.empty()) throw UsageError(problems.front());
}

std::vector<std::string> session_problems(const Config& cfg, const Session& session) {
  std::vector<std::string> out;
  for (const auto& p : session.problems()) {
    if (p.key == "power.total_rails") {
      out.push_back(cfg.at(p.key) + ": power.total_rails: " + p.message);
      continue;
    }
    // A trace file the config names is the place to fix; else the source.
    const std::string key = cfg.where.count(p.key) ? p.key : "power.source";
    out.push_back(cfg.at(key) + ": power: " + p.message);
  }
  return out;
}

std::vector<std::string> machine_problems(const Config& cfg, const Session& session) {
  std::vector<std::string> out = session_problems(cfg, session);
  for (auto& p : device_problems(cfg, session.platform())) out.push_back(std::move(p));
  // A Jetson's GPU allocates from the same DRAM as the CPU.
  for (auto& p : memory_problems(cfg, memory_limit(session.options().sysfs_root),
                                 session.platform().is_jetson()))
    out.push_back(std::move(p));
  return out;
}

}  // namespace edp::bench
