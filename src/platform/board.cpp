// Board identity. The nvpmodel files are those of L4T's nvpmodel tool: it
// writes the active mode to /var/lib/nvpmodel/status as "pmode:%04d" and reads
// its modes from /etc/nvpmodel.conf (a link to nvpmodel_t186.conf on a TX2).
#include "platform/board.h"

#include <cctype>
#include <regex>

#include "platform/boards.h"

namespace edp::platform {

std::string parse_l4t_release(const std::string& text) {
  static const std::regex re(R"(#\s*R(\d+)\s*\(release\),\s*REVISION:\s*([0-9]+(\.[0-9]+)*))");
  std::smatch m;
  if (!std::regex_search(text, m, re)) return "";
  return "R" + m[1].str() + "." + m[2].str();
}

int parse_nvpmodel_status(const std::string& status) {
  static const std::regex re(R"(pmode\s*:\s*(\d+))");
  std::smatch m;
  if (!std::regex_search(status, m, re) || m[1].length() > 6) return -1;
  return std::stoi(m[1].str());
}

std::map<int, std::string> parse_nvpmodel_conf(const std::string& conf) {
  static const std::regex re(R"(<\s*POWER_MODEL\s+ID\s*=\s*(\d+)\s+NAME\s*=\s*([^\s>]+)\s*>)");
  std::map<int, std::string> modes;
  for (std::sregex_iterator it(conf.begin(), conf.end(), re), end; it != end; ++it) {
    const auto& m = *it;
    if (m[1].length() > 6) continue;
    modes[std::stoi(m[1].str())] = m[2].str();
  }
  return modes;
}

std::string parse_tegra_soc(const std::string& compatible) {
  // Entries are NUL-separated strings such as "nvidia,tegra186".
  size_t start = 0;
  while (start < compatible.size()) {
    size_t end = compatible.find('\0', start);
    if (end == std::string::npos) end = compatible.size();
    const std::string entry = trim(compatible.substr(start, end - start));
    const std::string prefix = "nvidia,tegra";
    if (entry.compare(0, prefix.size(), prefix) == 0) return entry.substr(7);
    start = end + 1;
  }
  return "";
}

std::string nvpmodel_conf_path(const SysfsRoot& root, const std::string& board) {
  const std::string classic = "/etc/nvpmodel.conf";
  if (root.read(classic)) return classic;
  for (const auto& b : board_table())
    if (board == b.name && *b.nvpmodel_conf) {
      const std::string path = std::string("/etc/nvpmodel/") + b.nvpmodel_conf;
      if (root.read(path)) return path;
    }
  return classic;
}

BoardInfo read_board(const SysfsRoot& root) {
  BoardInfo b;
  // /proc/device-tree links to /sys/firmware/devicetree/base; a container may
  // mount only one of the two.
  for (const char* dt : {"/proc/device-tree", "/sys/firmware/devicetree/base"}) {
    if (!b.model.empty()) break;
    if (auto model = root.read(std::string(dt) + "/model")) b.model = trim(*model);
    if (auto compatible = root.read(std::string(dt) + "/compatible"); compatible && b.soc.empty()) {
      b.soc = parse_tegra_soc(*compatible);
      for (char c : *compatible) {
        const bool sep = c == '\0' || c == '\n' || c == ' ';
        if (sep && !b.compatible.empty() && b.compatible.back() != ' ')
          b.compatible.push_back(' ');
        else if (!sep && std::isprint(static_cast<unsigned char>(c)))
          b.compatible.push_back(c);
      }
      while (!b.compatible.empty() && b.compatible.back() == ' ') b.compatible.pop_back();
    }
  }
  if (b.model.empty()) {
    // x86 and other ACPI machines describe themselves through DMI.
    if (auto product = root.read_line("/sys/class/dmi/id/product_name")) b.model = *product;
  }
  const BoardMatch match = identify_board(b.model, b.compatible, b.soc);
  if (match.board) {
    b.board = match.board->name;
    b.board_by = match.by;
  }
  b.board_why = match.why;
  if (auto release = root.read("/etc/nv_tegra_release")) {
    b.l4t_release = parse_l4t_release(*release);
  }
  if (auto status = root.read("/var/lib/nvpmodel/status")) {
    b.nvpmodel_id = parse_nvpmodel_status(*status);
  }
  if (b.nvpmodel_id >= 0) {
    std::map<int, std::string> modes;
    if (auto conf = root.read(nvpmodel_conf_path(root, b.board)))
      modes = parse_nvpmodel_conf(*conf);
    // No readable conf: the board table's modes (the TX2's, from L4T R32).
    if (modes.empty() && match.board)
      for (const auto& [id, name] : match.board->nvpmodel_modes) modes[id] = name;
    auto it = modes.find(b.nvpmodel_id);
    if (it != modes.end()) b.nvpmodel_mode = it->second;
  }
  return b;
}

}  // namespace edp::platform
