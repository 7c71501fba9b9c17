// to_text(): what `edpbench probe` prints. One fact per line, aligned, with
// "unknown" where the platform did not say.
#include <cmath>
#include <cstdio>
#include <sstream>

#include "platform/boards.h"
#include "platform/cpu_list.h"
#include "platform/operating_point.h"
#include "platform/platform.h"

namespace edp::platform {
namespace {

std::string or_unknown(const std::string& s) { return s.empty() ? "unknown" : s; }

std::string mhz(long value, double per_mhz) {
  if (value < 0) return "?";
  char buf[32];
  snprintf(buf, sizeof buf, "%.1f", static_cast<double>(value) / per_mhz);
  return buf;
}

std::string row(const std::string& label, const std::string& value) {
  char buf[16];
  snprintf(buf, sizeof buf, "%-10s ", label.c_str());
  return buf + value + "\n";
}

}  // namespace

std::string to_text(const Platform& p) {
  std::ostringstream o;
  o << row("board", or_unknown(p.model) + (p.soc.empty() ? "" : " (" + p.soc + ")") +
                        (p.is_jetson() ? ", Jetson" : ""));
  // The board-table entry (platform/boards.h) and why it was chosen.
  if (!p.board_why.empty()) o << row("table", p.board_why);
  for (const auto& b : board_table())
    if (!p.board.empty() && p.board == b.name && p.board_by != "soc") {
      o << row("energy", b.energy);
      o << row("sources", b.sources);
    }
  if (p.is_jetson()) {
    o << row("L4T", or_unknown(p.l4t_release));
    o << row("nvpmodel", p.nvpmodel_id < 0 ? "unknown"
                                           : or_unknown(p.nvpmodel_mode) + " (id " +
                                                 std::to_string(p.nvpmodel_id) + ")");
  }
  std::vector<int> all;
  for (const auto& c : p.cpus) all.push_back(c.id);
  o << row("cpus", format_cpu_list(p.online_cpus()) + " online of " + format_cpu_list(all));
  std::string clusters;
  for (const auto& name : p.clusters()) {
    std::vector<int> ids;
    for (const auto& c : p.cpus) {
      if (c.cluster == name) ids.push_back(c.id);
    }
    clusters += (clusters.empty() ? "" : "; ") + name + " " + format_cpu_list(ids);
  }
  o << row("clusters", or_unknown(clusters));
  for (const auto& c : p.cpus) {
    std::string line = or_unknown(c.cluster) + (c.online ? " online" : " offline");
    if (c.governor.empty() && c.cur_khz < 0) {
      line += ", no cpufreq";
    } else {
      line += ", " + or_unknown(c.governor) + " " + mhz(c.cur_khz, 1e3) + " MHz (max " +
              mhz(c.max_khz, 1e3) + ", hw max " + mhz(c.hw_max_khz, 1e3) + ")";
    }
    o << row("cpu" + std::to_string(c.id), line);
  }
  if (p.gpu_devfreq_path.empty()) {
    o << row("gpu", "no devfreq node");
  } else {
    o << row("gpu", or_unknown(p.gpu_governor) + " " + mhz(p.gpu_cur_hz, 1e6) + " MHz (max " +
                        mhz(p.gpu_max_hz, 1e6) + ") at " + p.gpu_devfreq_path);
  }
  o << row("emc", p.emc_hz < 0 ? "unknown (debugfs needs root)" : mhz(p.emc_hz, 1e6) + " MHz");
  // Operating points the board offers (DESIGN §10).
  const OfferedPoints off = offered_points(p);
  if (!off.nvpmodel_modes.empty()) {
    std::string modes;
    for (const auto& m : off.nvpmodel_modes) {
      modes += (modes.empty() ? "" : ", ") + std::to_string(m.first) + " " + m.second;
    }
    if (off.nvpmodel_default >= 0)
      modes += " (default " + std::to_string(off.nvpmodel_default) + ")";
    o << row("modes", modes);
  }
  auto rates = [](const std::vector<long>& v, double per_mhz) {
    std::string s;
    for (long x : v) s += (s.empty() ? "" : " ") + mhz(x, per_mhz);
    return s.empty() ? std::string("none listed") : s + " MHz";
  };
  for (const auto& c : off.cpu_khz) o << row("rates", c.first + ": " + rates(c.second, 1e3));
  if (!off.cpu_governors.empty()) {
    std::string g;
    for (const auto& x : off.cpu_governors) g += (g.empty() ? "" : " ") + x;
    o << row("governors", g);
  }
  if (!p.gpu_devfreq_path.empty()) o << row("rates", "gpu: " + rates(off.gpu_hz, 1e6));
  if (off.emc_cap)
    o << row("rates", "emc: capped through /sys/kernel/nvpmodel_emc_cap/emc_iso_cap");
  o << row("thermal", p.thermal.empty() ? "no zones" : std::to_string(p.thermal.size()) + " zones");
  for (const auto& z : p.thermal) {
    char buf[32];
    if (std::isnan(z.temp_c)) {
      snprintf(buf, sizeof buf, "?");
    } else {
      snprintf(buf, sizeof buf, "%.1f C", z.temp_c);
    }
    o << row("  zone" + std::to_string(z.index), or_unknown(z.type) + " " + buf);
  }
  return o.str();
}

}  // namespace edp::platform
