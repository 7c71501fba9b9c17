// probe(): one pass over the tree under the sysfs root.
#include <algorithm>
#include <filesystem>
#include <system_error>

#include "common/errors.h"
#include "platform/board.h"
#include "platform/cpu_topology.h"
#include "platform/gpu_devfreq.h"
#include "platform/platform.h"
#include "platform/thermal.h"

namespace edp::platform {

bool Platform::is_jetson() const {
  // L4T writes nv_tegra_release; the device tree names the Tegra SoC even on
  // a root filesystem without it; the board table knows the model strings
  // that say neither ("quill", "lanai-3636").
  return !l4t_release.empty() || soc.compare(0, 5, "tegra") == 0 ||
         model.find("Jetson") != std::string::npos || (!board.empty() && board_by != "soc");
}

std::vector<int> Platform::online_cpus() const {
  std::vector<int> ids;
  for (const auto& c : cpus) {
    if (c.online) ids.push_back(c.id);
  }
  return ids;
}

std::vector<std::string> Platform::clusters() const {
  std::vector<std::string> names;
  for (const auto& c : cpus) {
    if (!c.cluster.empty() && std::find(names.begin(), names.end(), c.cluster) == names.end()) {
      names.push_back(c.cluster);
    }
  }
  return names;
}

int Platform::cpu_index(int id) const {
  for (size_t i = 0; i < cpus.size(); ++i) {
    if (cpus[i].id == id) return static_cast<int>(i);
  }
  return -1;
}

Platform probe(const std::string& sysfs_root) {
  const SysfsRoot root(sysfs_root);
  if (!root.root().empty()) {
    std::error_code ec;
    if (!std::filesystem::is_directory(root.root(), ec)) {
      throw UsageError("sysfs root '" + sysfs_root + "' is not a directory");
    }
  }
  Platform p;
  p.sysfs_root = root.root();
  BoardInfo board = read_board(root);
  p.model = std::move(board.model);
  p.soc = std::move(board.soc);
  p.compatible = std::move(board.compatible);
  p.board = std::move(board.board);
  p.board_by = std::move(board.board_by);
  p.board_why = std::move(board.board_why);
  p.l4t_release = std::move(board.l4t_release);
  p.nvpmodel_mode = std::move(board.nvpmodel_mode);
  p.nvpmodel_id = board.nvpmodel_id;
  p.cpus = read_cpus(root, p.soc);
  GpuDevfreq gpu = find_gpu_devfreq(root);
  p.gpu_devfreq_path = std::move(gpu.path);
  p.gpu_governor = std::move(gpu.governor);
  p.gpu_cur_hz = gpu.cur_hz;
  p.gpu_max_hz = gpu.max_hz;
  const GpuRailgate railgate = read_gpu_railgate(root, p.gpu_devfreq_path);
  p.gpu_railgate_path = railgate.path;
  p.gpu_railgate_enable = railgate.enable;
  p.gpu_railgate_delay_ms = railgate.delay_ms;
  p.emc_hz = read_emc_hz(root);
  p.thermal = read_thermal_zones(root);
  return p;
}

}  // namespace edp::platform
