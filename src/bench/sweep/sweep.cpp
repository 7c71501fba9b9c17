// A sweep's checks on this machine (see sweep.h).
#include "bench/sweep/sweep.h"

#include "bench/studies/memory_check.h"
#include "common/errors.h"
#include "edpbench/config.h"
#include "platform/cpu_list.h"
#include "platform/operating_point.h"
#include "workloads/cpu_backend.h"

namespace edp::bench {

ProtocolHooks Sweep::hooks(const Study& study, const PlanItem& item) {
  ProtocolHooks h(cfg);
  h.progress = progress.get();
  h.timeline = timeline;
  h.gemm_chooser = &gemm_chooser;
  h.backends = &backends;
  h.before_backend = [this, &study, &item](report::ItemRecord& rec) {
    static const std::vector<int> no_cpus;
    study.before_backend(item, PassContext{session.platform(), no_cpus, session, cfg}, rec);
  };
  h.after_parts = [this, &study, &item](Backend& be, const std::vector<int>& cpus,
                                        report::ItemRecord& rec) {
    study.after_parts(be, item, PassContext{session.platform(), cpus, session, cfg}, rec);
  };
  return h;
}

std::string join_rails(const std::vector<std::string>& rails) {
  return rails.empty() ? "(none)" : join(rails, "+");
}

// Usage errors a device entry can only reveal on this machine: a CPU set the
// platform lacks, a GEMM path the build lacks or cannot use here (BLIS with
// BLIS_ARCH_TYPE set), or a cuDNN ReLU in a build without cuDNN. Each names
// the config's place for the value.
std::vector<std::string> device_problems(const Config& cfg, const platform::Platform& platform) {
  std::vector<std::string> out;
  for (const auto& d : cfg.devices) {
    // "file:line:col: device cpu: why", at the key's own place when the
    // config gave it, else at the device entry.
    auto problem = [&](const std::string& field, const std::string& why) {
      const std::string key = "devices." + d.label;
      const std::string at = cfg.where.count(key + "." + field) ? key + "." + field : key;
      out.push_back(cfg.at(at) + ": device " + d.label + ": " + why);
    };
    if (d.kind == "cpu") {
      try {
        platform::resolve_cpu_set(platform, d.cpus);
      } catch (const std::exception& e) {  // UsageError, or no CPUs under the sysfs root
        problem("cpus", e.what());
      }
      if (const std::string why = d.gemm == "auto" ? "" : cpu_gemm_path_problem(d.gemm);
          !why.empty())
        problem("gemm", why);
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

namespace {

// power.sampler_cpu must be a CPU this process may run on (it was a warning
// when the sampler started, and the sampler ran unpinned).
std::vector<std::string> sampler_cpu_problems(const Config& cfg) {
  const int cpu = cfg.power.sampler_cpu;
  if (cpu < 0) return {};
  const std::vector<int> allowed = platform::allowed_cpus();
  if (allowed.empty() || std::find(allowed.begin(), allowed.end(), cpu) != allowed.end()) return {};
  return {cfg.at("power.sampler_cpu") + ": power.sampler_cpu " + std::to_string(cpu) +
          " is not a CPU this process may run on (" + platform::format_cpu_list(allowed) +
          "); pick one of them, or -1 not to pin the sampler"};
}

// Each operating point against this board (DESIGN §10), every problem at
// the place of the value that causes it: each setting is resolved on its
// own, then the point whole (settings that contradict each other).
std::vector<std::string> point_problems(const Config& cfg, const platform::Platform& p) {
  using Point = platform::OperatingPoint;
  const std::vector<std::pair<const char*, void (*)(const Point&, Point&)>> settings{
      {"nvpmodel", [](const Point& a, Point& b) { b.nvpmodel = a.nvpmodel; }},
      {"cpu_max_khz", [](const Point& a, Point& b) { b.cpu_max_khz = a.cpu_max_khz; }},
      {"cpu_min_khz", [](const Point& a, Point& b) { b.cpu_min_khz = a.cpu_min_khz; }},
      {"gpu_max_hz", [](const Point& a, Point& b) { b.gpu_max_hz = a.gpu_max_hz; }},
      {"gpu_min_hz", [](const Point& a, Point& b) { b.gpu_min_hz = a.gpu_min_hz; }},
      {"emc_max_hz", [](const Point& a, Point& b) { b.emc_max_hz = a.emc_max_hz; }},
      {"cpus_online", [](const Point& a, Point& b) { b.cpus_online = a.cpus_online; }},
      {"cpu_governor", [](const Point& a, Point& b) { b.cpu_governor = a.cpu_governor; }},
  };
  std::vector<std::string> out;
  if (cfg.operating_points.empty()) return out;
  // Root on the real board is refused before anything of the board is read
  // (the order check_points keeps).
  const platform::PrivilegeReport root = platform::check_privileges(p, {});
  if (!root.ok()) return {root.message()};
  for (const Point& point : cfg.operating_points) {
    const std::string at = "operating_points." + point.name;
    bool bad = false;
    for (const auto& [key, copy] : settings) {
      if (!cfg.where.count(at + "." + key)) continue;  // not given
      Point one;
      one.name = point.name;
      copy(point, one);
      try {
        platform::validate_points(p, {one});
      } catch (const UsageError& e) {
        out.push_back(cfg.at(at + "." + key) + ": " + e.what());
        bad = true;
      }
    }
    if (bad) continue;
    try {
      platform::validate_points(p, {point});
    } catch (const UsageError& e) {
      out.push_back(cfg.at(at) + ": " + e.what());
    }
  }
  return out;
}

}  // namespace

std::vector<std::string> session_problems(const Config& cfg, const Session& session) {
  std::vector<std::string> out;
  for (const auto& p : session.problems()) {
    if (p.key == "power.total_rails") {
      out.push_back(cfg.at(p.key) + ": power.total_rails: " + p.message);
      continue;
    }
    // A trace file the config check refused is reported once, from there.
    if (p.key == "power.trace.file" && !cfg.problems.empty() &&
        !trace_file_problem(cfg.power.trace.file).empty())
      continue;
    // A trace file the config names is the place to fix; else the source.
    const std::string key = cfg.where.count(p.key) ? p.key : "power.source";
    out.push_back(cfg.at(key) + ": power: " + p.message);
  }
  return out;
}

std::vector<std::string> machine_problems(const Config& cfg, const Session& session) {
  std::vector<std::string> out = session_problems(cfg, session);
  for (auto& p : device_problems(cfg, session.platform())) out.push_back(std::move(p));
  for (auto& p : sampler_cpu_problems(cfg)) out.push_back(std::move(p));
  for (auto& p : point_problems(cfg, session.platform())) out.push_back(std::move(p));
  // A Jetson's GPU allocates from the same DRAM as the CPU.
  for (auto& p : memory_problems(cfg, memory_limit(session.options().sysfs_root),
                                 session.platform().is_jetson()))
    out.push_back(std::move(p));
  return out;
}

}  // namespace edp::bench
