// Board identity: model, SoC, L4T release and nvpmodel power mode.
#pragma once

#include <map>
#include <string>

#include "platform/sysfs.h"

namespace edp::platform {

struct BoardInfo {
  std::string model;
  std::string soc;
  std::string compatible;  // the device-tree compatible entries, space-separated
  // The board-table entry (boards.h) and how it was told ("model",
  // "compatible", "soc"; "" when unknown), with one line saying why.
  std::string board, board_by, board_why;
  std::string l4t_release;
  std::string nvpmodel_mode;
  int nvpmodel_id = -1;
};

// /proc/device-tree/model (falls back to /sys/class/dmi/id/product_name),
// /proc/device-tree/compatible, /etc/nv_tegra_release,
// /var/lib/nvpmodel/status and /etc/nvpmodel.conf (else the board table's
// conf under /etc/nvpmodel/, where JetPack 5/6 keep them).
BoardInfo read_board(const SysfsRoot& root);

// The nvpmodel conf of the board: /etc/nvpmodel.conf where it exists (L4T
// links it to the board's file), else /etc/nvpmodel/<the board table's conf>
// (JetPack 5/6 keep them there), else /etc/nvpmodel.conf (for messages).
std::string nvpmodel_conf_path(const SysfsRoot& root, const std::string& board);

// "# R32 (release), REVISION: 7.1, GCID: ..." -> "R32.7.1"; "" when the text
// is not an nv_tegra_release line.
std::string parse_l4t_release(const std::string& nv_tegra_release);
// "pmode:0000" -> 0; -1 when unparsable.
int parse_nvpmodel_status(const std::string& status);
// The `< POWER_MODEL ID=n NAME=name >` headers of an nvpmodel.conf.
std::map<int, std::string> parse_nvpmodel_conf(const std::string& conf);
// The SoC named by a device-tree compatible list ("nvidia,p2771-0000\0
// nvidia,tegra186\0" -> "tegra186"); "" when no entry names a Tegra.
std::string parse_tegra_soc(const std::string& compatible);

}  // namespace edp::platform
