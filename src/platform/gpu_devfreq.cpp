// GPU devfreq discovery. On L4T the GPU is a devfreq device named after its
// bus address and chip ("17000000.gp10b" on a TX2) whose cur_freq/max_freq
// are in Hz. /sys/class/devfreq/ links to it, so scanning that class finds
// the GPU on every Jetson without a per-board path.
#include "platform/gpu_devfreq.h"

#include <filesystem>
#include <system_error>

namespace fs = std::filesystem;

namespace edp::platform {
namespace {

const char* const kGpuChips[] = {"gm20b", "gp10b", "gv11b", "ga10b", "gpu"};

// Paths used before the devfreq class existed or when it is not mounted.
const char* const kKnownGpuPaths[] = {
    "/sys/devices/17000000.gp10b/devfreq/17000000.gp10b",  // TX2
    "/sys/devices/17000000.gv11b/devfreq/17000000.gv11b",  // Xavier
    "/sys/devices/57000000.gpu/devfreq/57000000.gpu",      // TX1, Nano
};

GpuDevfreq read_node(const SysfsRoot& root, const std::string& abs) {
  GpuDevfreq g;
  std::error_code ec;
  const fs::path real = fs::canonical(root.path(abs), ec);
  g.path = ec ? abs : root.strip(real.string());
  if (auto v = root.read_line(abs + "/governor")) g.governor = *v;
  if (auto v = root.read_long(abs + "/cur_freq")) g.cur_hz = *v;
  if (auto v = root.read_long(abs + "/max_freq")) g.max_hz = *v;
  return g;
}

}  // namespace

bool is_gpu_devfreq_name(const std::string& name) {
  for (const char* chip : kGpuChips) {
    if (name.find(chip) != std::string::npos) return true;
  }
  return false;
}

GpuDevfreq find_gpu_devfreq(const SysfsRoot& root) {
  for (const auto& name : root.list("/sys/class/devfreq")) {
    if (is_gpu_devfreq_name(name)) return read_node(root, "/sys/class/devfreq/" + name);
  }
  for (const char* path : kKnownGpuPaths) {
    if (root.exists(std::string(path) + "/cur_freq")) return read_node(root, path);
  }
  return {};
}

GpuRailgate read_gpu_railgate(const SysfsRoot& root, const std::string& devfreq_path) {
  GpuRailgate r;
  if (devfreq_path.empty()) return r;
  std::vector<std::string> dirs{devfreq_path + "/device"};
  const fs::path node(devfreq_path);
  if (node.parent_path().filename() == "devfreq")
    dirs.push_back(node.parent_path().parent_path().string());
  for (const auto& dir : dirs) {
    if (!root.exists(dir + "/railgate_delay")) continue;
    r.path = dir;
    if (auto v = root.read_long(dir + "/railgate_delay")) r.delay_ms = *v;
    if (auto v = root.read_long(dir + "/railgate_enable")) r.enable = *v != 0 ? 1 : 0;
    if (auto v = root.read_line(dir + "/is_railgated")) r.is_railgated = *v;
    break;
  }
  return r;
}

long read_emc_hz(const SysfsRoot& root) {
  // TX1/TX2/Nano (common clock framework in debugfs), then Xavier/Orin (BPMP).
  for (const char* path :
       {"/sys/kernel/debug/clk/emc/clk_rate", "/sys/kernel/debug/bpmp/debug/clk/emc/rate"}) {
    if (auto v = root.read_long(path)) return *v;
  }
  return -1;
}

}  // namespace edp::platform
