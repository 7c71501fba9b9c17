// Operating points, the state file: the board's clocks and cores before the
// first change, written before it and read back by a restore after a crash.
// A state file is data from an untrusted place (whoever can write a sweep's
// output or the state directory wrote it): validate_state() accepts only the
// clock and core files the platform layer itself discovers under the sysfs
// root, with values inside those files' own ranges; nothing in it is ever run.
#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include <signal.h>
#include <unistd.h>

#include "common/atomic_file.h"
#include "common/errors.h"
#include "platform/board.h"
#include "platform/nvpmodel_conf.h"
#include "platform/operating_point.h"
#include "platform/operating_point_detail.h"

namespace fs = std::filesystem;

namespace edp::platform {

using namespace detail;

namespace {

// What a restorable file may hold.
struct Allowed {
  enum Kind { kOnline, kGovernor, kRate, kInteger } kind = kInteger;
  std::vector<std::string> governors;  // kGovernor
  long lo = 0, hi = 0;                 // kRate: inclusive; 0 also for a min file
};

// The files a restore may write on this board: the ones operating points can
// resolve to (validate_points), found here the same way, each with its range.
std::map<std::string, Allowed> restorable_files(const SysfsRoot& root, const Platform& p) {
  std::map<std::string, Allowed> out;
  auto rate = [&](const std::string& path, std::vector<long> table, long lo, long hi) {
    if (!table.empty()) {
      lo = lo > 0 ? std::min(lo, table.front()) : table.front();
      hi = std::max(hi, table.back());
    }
    if (hi <= 0) return;
    Allowed a;
    a.kind = Allowed::kRate;
    a.lo = lo;
    a.hi = hi;
    out[path] = a;
  };
  for (const auto& c : p.cpus) {
    Allowed a;
    a.kind = Allowed::kOnline;
    out[cpu_path(c.id, "/online")] = a;
  }
  for (const auto& pol : read_policies(root, p)) {
    for (int id : pol.cpus) {
      const std::string dir = cpu_path(id, "/cpufreq");
      const auto table = read_longs(root, dir + "/scaling_available_frequencies");
      const long lo = root.read_long(dir + "/cpuinfo_min_freq").value_or(0);
      const long hi = root.read_long(dir + "/cpuinfo_max_freq").value_or(0);
      rate(dir + "/scaling_max_freq", table, lo, hi);
      rate(dir + "/scaling_min_freq", table, lo, hi);
      Allowed g;
      g.kind = Allowed::kGovernor;
      g.governors = read_words(root, dir + "/scaling_available_governors");
      out[dir + "/scaling_governor"] = g;
    }
  }
  if (!p.gpu_devfreq_path.empty()) {
    const auto table = read_longs(root, p.gpu_devfreq_path + "/available_frequencies");
    rate(p.gpu_devfreq_path + "/max_freq", table, 0, 0);
    rate(p.gpu_devfreq_path + "/min_freq", table, 0, 0);
  }
  // The EMC cap: 0 (no cap) up to the top of its table, or of any rate the
  // board lists (the TX2's EMC tops out at 1.866 GHz).
  std::vector<long> emc_table;
  std::string emc_path = kEmcCap;
  if (auto text = root.read(nvpmodel_conf_path(root, p.board))) {
    const NvpmodelConf conf = parse_nvpmodel_config(*text);
    for (const auto& param : conf.params) {
      std::vector<long> table;
      if (param.second.files.count("FREQ_TABLE"))
        table = read_longs(root, param.second.files.at("FREQ_TABLE"));
      for (const auto& f : param.second.files) {
        if (f.first == "FREQ_TABLE" || out.count(f.second)) continue;
        if (f.second.compare(0, 5, "/sys/") != 0) continue;
        if (param.first == "EMC" && f.first == "MAX_FREQ") {
          emc_path = f.second;
          emc_table = table;
          continue;
        }
        if (param.second.type == "CLOCK" && !table.empty()) {
          rate(f.second, table, 0, 0);
        } else {
          out[f.second] = Allowed{};  // a plain integer file nvpmodel writes
        }
      }
    }
    // The early (R27) format names files directly: "/sys/path value".
    for (const auto& mode : conf.modes) {
      for (const auto& set : mode.settings) {
        if (!set.param.empty() || out.count(set.arg) || set.arg.compare(0, 5, "/sys/") != 0)
          continue;
        const std::string table = table_next_to(set.arg);
        if (!table.empty()) {
          rate(set.arg, read_longs(root, table), 0, 0);
        } else {
          out[set.arg] = Allowed{};
        }
      }
    }
  }
  Allowed emc;
  emc.kind = Allowed::kRate;
  emc.lo = 0;
  emc.hi = emc_table.empty() ? 100000000000L : emc_table.back();
  out[emc_path] = emc;
  return out;
}

// "/sys/a/b": absolute under /sys, no empty, "." or ".." component, no
// character outside [A-Za-z0-9_.:,+@-] in a name.
bool clean_sys_path(const std::string& path) {
  if (path.compare(0, 5, "/sys/") != 0 || path.back() == '/') return false;
  std::istringstream in(path.substr(1));
  for (std::string part; std::getline(in, part, '/');) {
    if (part.empty() || part == "." || part == "..") return false;
    for (char c : part) {
      if (!std::isalnum(static_cast<unsigned char>(c)) &&
          std::string("_.:,+@-").find(c) == std::string::npos)
        return false;
    }
  }
  return true;
}

bool clean_value(const std::string& v) {
  if (v.empty() || v.size() > 64) return false;
  return std::all_of(v.begin(), v.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
  });
}

}  // namespace

long process_start_ticks(long pid) {
  if (pid <= 0) return 0;
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  // proc(5): "pid (comm) state ppid ...": comm may hold spaces and ')', so
  // the fields are counted from the last ')'. starttime is field 22.
  const auto close = text.rfind(')');
  if (close == std::string::npos) return 0;
  std::istringstream fields(text.substr(close + 1));
  std::string f;
  for (int field = 3; field <= 22 && fields >> f; ++field) {
    if (field == 22) return parse_long(f).value_or(0);
  }
  return 0;
}

bool pid_is_live_edpbench(long pid, long start_ticks) {
  if (pid <= 0 || pid == static_cast<long>(::getpid())) return false;
  if (::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH) return false;
  // A recycled pid, or a process that only has "edpbench" in its name (the
  // job wrapper edpbench-job), is not the owner: the start time recorded
  // with the pid must match, and the name must be edpbench's own.
  if (start_ticks > 0 && process_start_ticks(pid) != start_ticks) return false;
  std::ifstream in("/proc/" + std::to_string(pid) + "/comm");
  std::string comm;
  std::getline(in, comm);
  return comm == "edpbench";
}

SavedState capture_state(const Platform& p, const std::vector<ResolvedPoint>& points,
                         const ApplyOptions& opt) {
  const SysfsRoot root(p.sysfs_root);
  SavedState s;
  s.sysfs_root = root.root();
  s.nvpmodel_id = p.nvpmodel_id;
  s.pid = static_cast<long>(::getpid());
  s.pid_start = process_start_ticks(s.pid);
  for (const auto& pt : points) {
    if (!opt.nvpmodel_tool.empty() && pt.point.nvpmodel >= 0) s.nvpmodel_by_tool = true;
  }
  for (const auto& w : union_of_files(points)) {
    auto v = root.read_line(w.path);
    if (!v) throw UsageError("cannot read " + root.path(w.path) + " to save the board's state");
    s.files.push_back({w.path, *v, "", false});
  }
  return s;
}

std::string format_state(const SavedState& s) {
  std::string o =
      "# edpbench: the board's clocks and cores before edpbench changed them.\n"
      "# Restore with: edpbench restore --state <this file>\n"
      "version=1\n";
  o += "sysfs_root=" + s.sysfs_root + "\n";
  o += "nvpmodel_id=" + std::to_string(s.nvpmodel_id) + "\n";
  o += std::string("nvpmodel_by_tool=") + (s.nvpmodel_by_tool ? "1" : "0") + "\n";
  o += "pid=" + std::to_string(s.pid) + "\n";
  o += "pid_start=" + std::to_string(s.pid_start) + "\n";
  for (const auto& f : s.files) o += "file=" + f.path + "=" + f.value + "\n";
  return o;
}

SavedState parse_state(const std::string& text) {
  SavedState s;
  bool versioned = false;
  std::istringstream in(text);
  int n = 0;
  for (std::string line; std::getline(in, line);) {
    ++n;
    if (line.empty() || line[0] == '#') continue;
    const auto eq = line.find('=');
    const std::string at = "state file line " + std::to_string(n) + ": ";
    if (eq == std::string::npos)
      throw UsageError("not an edpbench state file (line " + std::to_string(n) + " has no '=')");
    const std::string key = line.substr(0, eq), value = line.substr(eq + 1);
    if (key == "version") {
      if (value != "1") throw UsageError("state file version " + value + " is not 1");
      versioned = true;
    } else if (key == "sysfs_root") {
      s.sysfs_root = value;
    } else if (key == "nvpmodel_id") {
      s.nvpmodel_id = static_cast<int>(parse_long(value).value_or(-1));
    } else if (key == "nvpmodel_by_tool") {
      s.nvpmodel_by_tool = value == "1";
    } else if (key == "nvpmodel_tool") {
      // Files of earlier versions named the tool; the name is never run
      // (restore uses its own fixed paths), only "a tool was used" is kept.
      s.nvpmodel_by_tool = !value.empty();
    } else if (key == "pid") {
      s.pid = parse_long(value).value_or(0);
    } else if (key == "pid_start") {
      s.pid_start = parse_long(value).value_or(0);
    } else if (key == "file") {
      const auto sep = value.rfind('=');
      if (sep == std::string::npos || value.empty() || value[0] != '/') {
        throw UsageError(at + "expected file=/path=value");
      }
      s.files.push_back({value.substr(0, sep), value.substr(sep + 1), "", false});
    } else {
      throw UsageError(at + "unknown key '" + key.substr(0, 40) + "'");
    }
  }
  if (!versioned) throw UsageError("not an edpbench state file (no version=1 line)");
  return s;
}

void validate_state(const SavedState& s, const std::string& sysfs_root) {
  const SysfsRoot root(sysfs_root);
  const Platform p = probe(sysfs_root);
  const auto allowed = restorable_files(root, p);
  std::error_code ec;
  const fs::path real_root = fs::canonical(root.root().empty() ? "/" : root.root(), ec);
  if (ec) throw UsageError("sysfs root " + sysfs_root + ": " + ec.message());
  const std::string sys_dir = (real_root / "sys").string() + "/";
  std::set<std::string> seen;
  const std::string fix =
      " (edpbench writes only the clock and core files it finds itself; if this file was not "
      "written by edpbench, delete it and restore the clocks by hand or reboot)";
  for (const auto& f : s.files) {
    const std::string what = "state file entry file=" + f.path + "=" + f.value + ": ";
    if (!clean_sys_path(f.path))
      throw UsageError(what + "not a plain path under /sys (no '..', '.', '//')" + fix);
    if (!seen.insert(f.path).second) throw UsageError(what + "the file is listed twice" + fix);
    auto it = allowed.find(f.path);
    if (it == allowed.end())
      throw UsageError(what + "not a clock or core file of this board" + fix);
    // Symlinks inside sysfs are normal (cpuN/cpufreq -> ../cpufreq/policyN);
    // wherever they lead must still be under <root>/sys, and the file itself
    // must not be a link.
    std::error_code ec2;
    const fs::path real = fs::canonical(root.path(f.path), ec2);
    if (ec2) throw UsageError(what + root.path(f.path) + ": " + ec2.message());
    if (real.string().compare(0, sys_dir.size(), sys_dir) != 0)
      throw UsageError(what + "resolves to " + real.string() + ", outside " + sys_dir + fix);
    if (fs::is_symlink(fs::symlink_status(root.path(f.path), ec2)))
      throw UsageError(what + root.path(f.path) + " is a symbolic link" + fix);
    if (!clean_value(f.value)) throw UsageError(what + "the value is not a plain word" + fix);
    const Allowed& a = it->second;
    const auto v = parse_long(f.value);
    switch (a.kind) {
      case Allowed::kOnline:
        if (f.value != "0" && f.value != "1") throw UsageError(what + "online takes 0 or 1");
        break;
      case Allowed::kGovernor:
        if (std::find(a.governors.begin(), a.governors.end(), f.value) == a.governors.end())
          throw UsageError(what + "not a governor the policy offers (" + join(a.governors) + ")");
        break;
      case Allowed::kRate:
        if (!v || ((*v != 0 || !is_min_file(f.path)) && (*v < a.lo || *v > a.hi)))
          throw UsageError(what + "outside the file's range " + std::to_string(a.lo) + ".." +
                           std::to_string(a.hi));
        break;
      case Allowed::kInteger:
        if (!v) throw UsageError(what + "not an integer");
        break;
    }
  }
  if (s.nvpmodel_by_tool && s.nvpmodel_id >= 0) {
    const std::string conf_path = nvpmodel_conf_path(root, p.board);
    const auto text = root.read(conf_path);
    const NvpmodelConf conf = text ? parse_nvpmodel_config(*text) : NvpmodelConf{};
    if (!conf.find(s.nvpmodel_id))
      throw UsageError("state file nvpmodel_id=" + std::to_string(s.nvpmodel_id) +
                       " is not a mode of " + root.path(conf_path) + fix);
  }
}

void write_state(const SavedState& s, const std::vector<std::string>& paths) {
  // Every copy names all copies, so that the restore of one removes the
  // others (a comment: the parsers of earlier versions skip it).
  std::string text = format_state(s);
  for (const auto& path : paths) text += std::string(kCopyComment) + path + "\n";
  for (const auto& path : paths) {
    std::error_code ec;
    const fs::path parent = fs::path(path).parent_path();
    if (!parent.empty()) fs::create_directories(parent, ec);
    write_file_atomic(path, text);
  }
}

std::vector<std::string> state_file_paths(const std::string& out_dir) {
  std::vector<std::string> out;
  const char* name = "clock-state.txt";
  if (!out_dir.empty()) out.push_back(out_dir + "/" + name);
  std::string dir;
  if (const char* sd = std::getenv("STATE_DIRECTORY"); sd && *sd) {
    dir = sd;
    dir = dir.substr(0, dir.find(':'));  // several directories: the first
  } else if (const char* xdg = std::getenv("XDG_STATE_HOME"); xdg && *xdg) {
    dir = std::string(xdg) + "/edpbench";
  } else if (const char* home = std::getenv("HOME"); home && *home) {
    dir = std::string(home) + "/.local/state/edpbench";
  }
  if (!dir.empty()) out.push_back(dir + "/" + name);
  return out;
}

}  // namespace edp::platform
