// Operating points: resolution against the board, privilege check, saved
// state, ordered apply with read-back and undo, restore. See operating_point.h
// for the sysfs files and their kernel documentation.
#include "platform/operating_point.h"

#include "platform/board.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>
#include <thread>

#include "common/atomic_file.h"
#include "common/errors.h"
#include "platform/board.h"
#include "platform/cpu_list.h"
#include "platform/nvpmodel_conf.h"

extern char** environ;

namespace fs = std::filesystem;

namespace edp::platform {
namespace {

const char* const kCpuDir = "/sys/devices/system/cpu/cpu";
const char* const kEmcCap = "/sys/kernel/nvpmodel_emc_cap/emc_iso_cap";
const char* const kGrantFile = "/usr/lib/edpbench/edpbench-clocks.tmpfiles";
const char* const kDropinFile = "/usr/lib/edpbench/edpbench-clocks.service.conf";

std::string cpu_path(int id, const std::string& rest) {
  return kCpuDir + std::to_string(id) + rest;
}

std::string dirname_of(const std::string& path) {
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? "" : path.substr(0, slash);
}

std::string basename_of(const std::string& path) {
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// Whitespace-separated integers ("345600 499200 ..."), sorted.
std::vector<long> read_longs(const SysfsRoot& root, const std::string& path) {
  std::vector<long> out;
  auto text = root.read(path);
  if (!text) return out;
  std::istringstream in(*text);
  for (std::string w; in >> w;) {
    if (auto v = parse_long(w)) out.push_back(*v);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::vector<std::string> read_words(const SysfsRoot& root, const std::string& path) {
  std::vector<std::string> out;
  auto text = root.read(path);
  if (!text) return out;
  std::istringstream in(*text);
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

std::string join(const std::vector<long>& v) {
  std::string s;
  for (long x : v) s += (s.empty() ? "" : " ") + std::to_string(x);
  return s;
}

std::string join(const std::vector<std::string>& v, const char* sep = " ") {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : sep) + x;
  return s;
}

// A cpufreq policy: the CPUs that share one clock (related_cpus).
struct Policy {
  std::vector<int> cpus;
};

std::vector<Policy> read_policies(const SysfsRoot& root, const Platform& p) {
  std::vector<Policy> out;
  std::set<int> seen;
  for (const auto& c : p.cpus) {
    if (seen.count(c.id)) continue;
    std::vector<std::string> words = read_words(root, cpu_path(c.id, "/cpufreq/related_cpus"));
    if (words.empty()) words = read_words(root, cpu_path(c.id, "/cpufreq/affected_cpus"));
    if (words.empty()) continue;
    Policy pol;
    for (const auto& w : words) {
      if (auto v = parse_long(w)) pol.cpus.push_back(static_cast<int>(*v));
    }
    if (std::find(pol.cpus.begin(), pol.cpus.end(), c.id) == pol.cpus.end()) {
      pol.cpus.push_back(c.id);
    }
    std::sort(pol.cpus.begin(), pol.cpus.end());
    for (int id : pol.cpus) seen.insert(id);
    out.push_back(pol);
  }
  return out;
}

// The writes of one point, keyed by path so that explicit limits override the
// mode's settings for the same file.
class WriteSet {
 public:
  void set(ClockWrite w) {
    auto it = index_.find(w.path);
    if (it != index_.end()) {
      writes_[it->second] = std::move(w);
      return;
    }
    index_[w.path] = writes_.size();
    writes_.push_back(std::move(w));
  }
  const ClockWrite* get(const std::string& path) const {
    auto it = index_.find(path);
    return it == index_.end() ? nullptr : &writes_[it->second];
  }
  std::vector<ClockWrite>& all() { return writes_; }

 private:
  std::vector<ClockWrite> writes_;
  std::map<std::string, size_t> index_;
};

bool is_online_file(const std::string& path) { return basename_of(path) == "online"; }
bool is_governor_file(const std::string& path) {
  const std::string b = basename_of(path);
  return b == "scaling_governor" || b == "governor";
}
bool is_min_file(const std::string& path) {
  return basename_of(path).find("min") != std::string::npos;
}

// The CPU id of /sys/devices/system/cpu/cpuN/online, or -1.
int online_file_cpu(const std::string& path) {
  const std::string prefix = kCpuDir;
  if (path.compare(0, prefix.size(), prefix) != 0 || !is_online_file(path)) return -1;
  const auto v = parse_long(path.substr(prefix.size(), path.size() - prefix.size() - 7));
  return v ? static_cast<int>(*v) : -1;
}

// The rate table next to a min/max file, if the kernel offers one there.
std::string table_next_to(const std::string& path) {
  const std::string dir = dirname_of(path);
  const std::string b = basename_of(path);
  if (b == "scaling_max_freq" || b == "scaling_min_freq")
    return dir + "/scaling_available_frequencies";
  if (b == "max_freq" || b == "min_freq") return dir + "/available_frequencies";
  return "";
}

// Safe write order, given the values the files hold now: CPUs online first,
// then governors, then each clock directory with the max first when the
// ceiling rises (so min never exceeds max) and the min first when it falls,
// then CPUs offline last.
std::vector<ClockWrite> ordered(const SysfsRoot& root, const std::vector<ClockWrite>& writes) {
  std::vector<ClockWrite> up, gov, clocks, down;
  std::vector<std::string> dirs;
  std::map<std::string, std::vector<ClockWrite>> by_dir;
  for (const auto& w : writes) {
    if (is_online_file(w.path)) {
      (trim(w.value) == "0" ? down : up).push_back(w);
    } else if (is_governor_file(w.path)) {
      gov.push_back(w);
    } else {
      const std::string d = dirname_of(w.path);
      if (!by_dir.count(d)) dirs.push_back(d);
      by_dir[d].push_back(w);
    }
  }
  for (const auto& d : dirs) {
    auto& ws = by_dir[d];
    const ClockWrite* min_w = nullptr;
    const ClockWrite* max_w = nullptr;
    for (const auto& w : ws) (is_min_file(w.path) ? min_w : max_w) = &w;
    bool min_first = false;
    if (min_w && max_w) {
      const auto cur_max = root.read_long(max_w->path);
      const auto new_max = parse_long(max_w->value);
      min_first = cur_max && new_max && *new_max < *cur_max;
    }
    std::stable_sort(ws.begin(), ws.end(), [&](const ClockWrite& a, const ClockWrite& b) {
      return (is_min_file(a.path) == min_first) && (is_min_file(b.path) != min_first);
    });
    clocks.insert(clocks.end(), ws.begin(), ws.end());
  }
  std::vector<ClockWrite> out = up;
  out.insert(out.end(), gov.begin(), gov.end());
  out.insert(out.end(), clocks.begin(), clocks.end());
  out.insert(out.end(), down.begin(), down.end());
  return out;
}

int write_one(const std::string& real, const std::string& value, const ApplyOptions& opt) {
  if (opt.write_file) return opt.write_file(real, value);
  const int fd = ::open(real.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
  if (fd < 0) return errno;
  const std::string data = value + "\n";
  const ssize_t n = ::write(fd, data.data(), data.size());
  const int err = n < 0 ? errno : (static_cast<size_t>(n) != data.size() ? EIO : 0);
  if (::close(fd) != 0 && err == 0) return errno;
  return err;
}

bool holds(const SysfsRoot& root, const ClockWrite& w) {
  const auto now = root.read_line(w.path);
  if (!now) return false;
  return *now == trim(w.value) || (!w.alt.empty() && *now == trim(w.alt));
}

// The pre-change value of every file, for undo.
std::vector<ClockWrite> current_values(const SysfsRoot& root, const std::vector<ClockWrite>& ws) {
  std::vector<ClockWrite> out;
  for (const auto& w : ws) {
    if (auto v = root.read_line(w.path)) out.push_back({w.path, *v, "", false});
  }
  return out;
}

// Best-effort write of `values` (in a safe order); returns one line per failure.
std::vector<std::string> write_back(const SysfsRoot& root, const std::vector<ClockWrite>& values,
                                    const ApplyOptions& opt) {
  std::vector<std::string> failures;
  for (const auto& w : ordered(root, values)) {
    if (holds(root, w)) continue;
    if (const int err = write_one(root.path(w.path), w.value, opt)) {
      failures.push_back(w.path + ": writing '" + w.value + "' failed: " + std::strerror(err));
    }
  }
  return failures;
}

std::string find_tool(const std::string& tool) {
  if (tool.empty()) return "";
  if (tool.find('/') != std::string::npos) return ::access(tool.c_str(), X_OK) == 0 ? tool : "";
  const char* path = std::getenv("PATH");
  std::istringstream dirs(path ? path : "/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin");
  for (std::string d; std::getline(dirs, d, ':');) {
    if (d.empty()) d = ".";
    const std::string candidate = d + "/" + tool;
    struct stat st;
    if (::stat(candidate.c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
        ::access(candidate.c_str(), X_OK) == 0) {
      return candidate;
    }
  }
  return "";
}

// Runs `tool -m id` with its stdout on our stderr; returns "" or the failure.
std::string run_tool(const std::string& tool, int id) {
  const std::string exe = find_tool(tool);
  if (exe.empty()) return "nvpmodel tool '" + tool + "' not found on PATH";
  const std::string mode = std::to_string(id);
  std::vector<char*> argv = {const_cast<char*>(exe.c_str()), const_cast<char*>("-m"),
                             const_cast<char*>(mode.c_str()), nullptr};
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, 2, 1);
  pid_t pid = 0;
  const int rc = posix_spawn(&pid, exe.c_str(), &fa, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0) return exe + " -m " + mode + ": " + std::strerror(rc);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return "";
  return exe + " -m " + mode + " " +
         (WIFEXITED(status) ? "exited with status " + std::to_string(WEXITSTATUS(status))
                            : "was killed by signal " + std::to_string(WTERMSIG(status)));
}

bool as_root_on_real_board(const std::string& sysfs_root) {
  return ::geteuid() == 0 && SysfsRoot(sysfs_root).root().empty();
}

bool writable(const std::string& real) {
  if (::geteuid() == 0) {
    // Root passes every access() check; judge a (fake) tree by its mode bits
    // as the unprivileged service user would meet them.
    struct stat st;
    return ::stat(real.c_str(), &st) == 0 && (st.st_mode & 0222) != 0;
  }
  return ::faccessat(AT_FDCWD, real.c_str(), W_OK, AT_EACCESS) == 0;
}

double now_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// ---- resolution -------------------------------------------------------------

class Resolver {
 public:
  Resolver(const Platform& p)
      : p_(p),
        root_(p.sysfs_root),
        policies_(read_policies(root_, p)),
        conf_path_(nvpmodel_conf_path(root_, p.board)) {
    if (auto text = root_.read(conf_path_)) {
      conf_ = parse_nvpmodel_config(*text);
      have_conf_ = true;
    }
  }

  ResolvedPoint resolve(const OperatingPoint& pt) {
    name_ = pt.name;
    ResolvedPoint r;
    r.point = pt;
    WriteSet ws;
    std::set<int> online;
    for (int id : p_.online_cpus()) online.insert(id);
    if (pt.nvpmodel >= 0) r.nvpmodel_name = resolve_mode(pt.nvpmodel, ws, online);
    if (!pt.cpus_online.empty()) resolve_online(pt.cpus_online, ws, online);
    const bool cpu_clocks = pt.cpu_max_khz >= 0 || pt.cpu_min_khz >= 0 || !pt.cpu_governor.empty();
    if (pt.cpu_min_khz >= 0 && pt.cpu_max_khz >= 0 && pt.cpu_min_khz > pt.cpu_max_khz) {
      fail("cpu_min_khz " + std::to_string(pt.cpu_min_khz) + " is above cpu_max_khz " +
           std::to_string(pt.cpu_max_khz));
    }
    if (cpu_clocks) {
      bool any = false;
      for (const auto& pol : policies_) {
        int lead = -1;
        for (int id : pol.cpus) {
          if (online.count(id)) {
            lead = id;
            break;
          }
        }
        if (lead < 0) continue;  // the whole cluster is offline at this point
        any = true;
        const std::string dir = cpu_path(lead, "/cpufreq");
        if (pt.cpu_max_khz >= 0)
          explicit_rate(ws, dir + "/scaling_max_freq", "cpu_max_khz", pt.cpu_max_khz);
        if (pt.cpu_min_khz >= 0)
          explicit_rate(ws, dir + "/scaling_min_freq", "cpu_min_khz", pt.cpu_min_khz);
        if (!pt.cpu_governor.empty()) {
          const auto govs = read_words(root_, dir + "/scaling_available_governors");
          if (std::find(govs.begin(), govs.end(), pt.cpu_governor) == govs.end()) {
            fail("cpu_governor '" + pt.cpu_governor + "' is not offered by " + dir +
                 "/scaling_available_governors (" + (govs.empty() ? "missing" : join(govs)) + ")");
          }
          ws.set({dir + "/scaling_governor", pt.cpu_governor, "", false});
        }
      }
      if (!any)
        fail("cpu limits given, but no CPU has a cpufreq policy (" + std::string(kCpuDir) +
             "N/cpufreq)");
    }
    if (pt.gpu_max_hz >= 0 || pt.gpu_min_hz >= 0) {
      if (p_.gpu_devfreq_path.empty()) {
        fail("gpu limits given, but this board has no GPU devfreq node (/sys/class/devfreq/*)");
      }
      if (pt.gpu_min_hz >= 0 && pt.gpu_max_hz >= 0 && pt.gpu_min_hz > pt.gpu_max_hz) {
        fail("gpu_min_hz " + std::to_string(pt.gpu_min_hz) + " is above gpu_max_hz " +
             std::to_string(pt.gpu_max_hz));
      }
      const std::string dir = p_.gpu_devfreq_path;
      if (pt.gpu_max_hz >= 0) explicit_rate(ws, dir + "/max_freq", "gpu_max_hz", pt.gpu_max_hz);
      if (pt.gpu_min_hz >= 0) explicit_rate(ws, dir + "/min_freq", "gpu_min_hz", pt.gpu_min_hz);
    }
    if (pt.emc_max_hz >= 0) {
      std::string path = kEmcCap, table;
      if (have_conf_) {
        auto it = conf_.params.find("EMC");
        if (it != conf_.params.end() && it->second.files.count("MAX_FREQ")) {
          path = it->second.files.at("MAX_FREQ");
          if (it->second.files.count("FREQ_TABLE")) table = it->second.files.at("FREQ_TABLE");
        }
      }
      if (pt.emc_max_hz > 0 && !table.empty()) {
        const auto rates = read_longs(root_, table);
        if (!std::binary_search(rates.begin(), rates.end(), pt.emc_max_hz)) {
          fail("emc_max_hz " + std::to_string(pt.emc_max_hz) + " is not a rate " + table +
               " lists (" + join(rates) + ")");
        }
      }
      ws.set({path, std::to_string(pt.emc_max_hz), "", false});
    }
    if (ws.all().empty()) fail("sets nothing: give nvpmodel or at least one limit");
    // min <= max per clock, after the explicit limits overrode the mode.
    for (const auto& w : ws.all()) {
      if (!is_min_file(w.path) || is_online_file(w.path) || is_governor_file(w.path)) continue;
      std::string max_path = w.path;
      max_path.replace(max_path.rfind("min"), 3, "max");
      const ClockWrite* mx = ws.get(max_path);
      const auto lo = parse_long(w.value);
      const auto hi = mx ? parse_long(mx->value) : std::nullopt;
      if (lo && hi && *lo > *hi) {
        fail(w.path + " would be " + w.value + ", above " + max_path + " " + mx->value);
      }
    }
    for (const auto& w : ws.all()) {
      if (!root_.exists(w.path)) fail(w.path + " is missing on this board");
    }
    r.writes = ws.all();
    return r;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw UsageError("operating point '" + name_ + "': " + what);
  }

  void explicit_rate(WriteSet& ws, const std::string& path, const char* key, long value) {
    const std::string table = table_next_to(path);
    const auto rates = read_longs(root_, table);
    if (rates.empty()) {
      fail(std::string(key) + " needs " + table + " to check the value against; it is missing");
    }
    if (!std::binary_search(rates.begin(), rates.end(), value)) {
      fail(std::string(key) + " " + std::to_string(value) + " is not a rate " + table +
           " lists; valid: " + join(rates));
    }
    ws.set({path, std::to_string(value), "", false});
  }

  // The CPU hotplug write for cpu `id`, or nothing for an online CPU that
  // has no online file (cpu0 on arm64).
  void set_online(WriteSet& ws, int id, bool on, std::set<int>& online, bool from_mode) {
    if (p_.cpu_index(id) < 0) {
      std::vector<int> present;
      for (const auto& c : p_.cpus) present.push_back(c.id);
      fail("cpu" + std::to_string(id) +
           " is not present; present CPUs: " + format_cpu_list(present));
    }
    const std::string path = cpu_path(id, "/online");
    if (!root_.exists(path)) {
      const bool is_on = online.count(id) > 0;
      if (on == is_on) return;
      fail("cpu" + std::to_string(id) + " cannot go " + (on ? "online" : "offline") + ": " + path +
           " is missing on this board");
    }
    ws.set({path, on ? "1" : "0", "", from_mode});
    if (on) {
      online.insert(id);
    } else {
      online.erase(id);
    }
  }

  void resolve_online(const std::string& spec, WriteSet& ws, std::set<int>& online) {
    std::vector<int> want;
    try {
      want = parse_cpu_list(spec);
    } catch (const std::exception& e) {
      fail("cpus_online '" + spec + "': " + e.what());
    }
    for (int id : want) set_online(ws, id, true, online, false);
    for (const auto& c : p_.cpus) {
      if (std::find(want.begin(), want.end(), c.id) == want.end()) {
        set_online(ws, c.id, false, online, false);
      }
    }
    if (online.empty()) fail("cpus_online '" + spec + "' leaves no CPU online");
  }

  // A conf figure rounded to the table: MAX to the highest rate not above it
  // (-1 = INT_MAX: the top), MIN to the lowest not below it.
  static std::string round_rate(const std::vector<long>& rates, long v, bool is_min) {
    if (rates.empty()) return std::to_string(v);
    if (v < 0) return std::to_string(rates.back());
    if (is_min) {
      auto it = std::lower_bound(rates.begin(), rates.end(), v);
      return std::to_string(it == rates.end() ? rates.back() : *it);
    }
    auto it = std::upper_bound(rates.begin(), rates.end(), v);
    return std::to_string(it == rates.begin() ? rates.front() : *(it - 1));
  }

  std::string resolve_mode(int id, WriteSet& ws, std::set<int>& online) {
    if (!have_conf_) {
      fail("nvpmodel: " + std::to_string(id) + " needs " + root_.path(conf_path_) +
           ", which is missing or unreadable");
    }
    const NvpMode* mode = conf_.find(id);
    if (!mode) {
      fail("nvpmodel: " + std::to_string(id) + " is not a mode of " + root_.path(conf_path_) +
           "; valid: " + conf_.mode_list());
    }
    for (const auto& s : mode->settings) {
      const std::string where = std::string(conf_path_) + " line " + std::to_string(s.line);
      std::string path, table;
      bool clock = false;
      if (s.param.empty()) {  // old format: "/sys/path value"
        path = s.arg;
        table = table_next_to(path);
        clock = !is_online_file(path) && !table.empty();
      } else {
        auto it = conf_.params.find(s.param);
        if (it == conf_.params.end())
          fail(where + " names " + s.param + ", which no PARAM section defines");
        auto f = it->second.files.find(s.arg);
        if (f == it->second.files.end()) {
          fail(where + " names " + s.param + " " + s.arg +
               ", which its PARAM section does not define");
        }
        path = f->second;
        clock = it->second.type == "CLOCK";
        if (clock && it->second.files.count("FREQ_TABLE"))
          table = it->second.files.at("FREQ_TABLE");
      }
      const int cpu = online_file_cpu(path);
      if (cpu >= 0) {
        set_online(ws, cpu, trim(s.value) != "0", online, true);
        continue;
      }
      if (!clock) {
        ws.set({path, s.value, "", true});
        continue;
      }
      const auto v = parse_long(s.value);
      if (!v) fail(where + ": '" + s.value + "' is not an integer");
      const auto rates = table.empty() ? std::vector<long>{} : read_longs(root_, table);
      if (!table.empty() && rates.empty())
        fail(table + " (the rate table of " + where + ") is missing");
      ClockWrite w{path, round_rate(rates, *v, is_min_file(path)), "", true};
      if (w.value != s.value) w.alt = *v < 0 && !rates.empty() ? "" : s.value;
      ws.set(w);
    }
    return mode->name;
  }

  const Platform& p_;
  SysfsRoot root_;
  std::vector<Policy> policies_;
  std::string conf_path_;  // the board's nvpmodel conf (board.h)
  NvpmodelConf conf_;
  bool have_conf_ = false;
  std::string name_;
};

std::vector<ClockWrite> union_of_files(const std::vector<ResolvedPoint>& points) {
  std::vector<ClockWrite> out;
  std::set<std::string> seen;
  for (const auto& pt : points) {
    for (const auto& w : pt.writes) {
      if (seen.insert(w.path).second) out.push_back(w);
    }
  }
  return out;
}

bool pid_is_live_edpbench(long pid) {
  if (pid <= 0 || pid == static_cast<long>(::getpid())) return false;
  if (::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH) return false;
  SysfsRoot real;
  auto comm = real.read_line("/proc/" + std::to_string(pid) + "/comm");
  return comm && comm->find("edpbench") != std::string::npos;
}

}  // namespace

std::string grant_instructions() {
  return std::string(
             "Grant group edpbench write access to exactly these files (docs/deployment.md, "
             "\"Changing clocks\"):\n"
             "  sudo cp ") +
         kGrantFile +
         " /etc/tmpfiles.d/edpbench-clocks.conf\n"
         "  sudo systemd-tmpfiles --create /etc/tmpfiles.d/edpbench-clocks.conf\n"
         "then run edpbench as a member of edpbench (sudo adduser $USER edpbench, log in "
         "again), never as root; under systemd also let the service write them:\n"
         "  sudo mkdir -p /etc/systemd/system/edpbench.service.d\n"
         "  sudo cp " +
         kDropinFile +
         " /etc/systemd/system/edpbench.service.d/clocks.conf\n"
         "  sudo systemctl daemon-reload\n";
}

// ---- public API ---------------------------------------------------------------

std::string ResolvedPoint::describe() const {
  std::string s = point.name;
  if (point.nvpmodel >= 0)
    s += " (nvpmodel " + std::to_string(point.nvpmodel) + " " + nvpmodel_name + ")";
  s += ":";
  for (const auto& w : writes) s += " " + w.path + "=" + w.value;
  return s;
}

std::vector<ResolvedPoint> validate_points(const Platform& p,
                                           const std::vector<OperatingPoint>& points) {
  Resolver resolver(p);
  std::vector<ResolvedPoint> out;
  std::set<std::string> names;
  for (const auto& pt : points) {
    if (pt.name.empty()) throw UsageError("operating point without a name");
    if (!names.insert(pt.name).second) {
      throw UsageError("operating point '" + pt.name + "' is named twice");
    }
    out.push_back(resolver.resolve(pt));
  }
  return out;
}

std::string PrivilegeReport::message() const {
  if (ok()) return "";
  std::string m;
  for (const auto& p : problems) m += p + "\n";
  if (!unwritable.empty()) {
    m += "edpbench cannot write " + std::to_string(unwritable.size()) +
         " file(s) that the operating points change:\n";
    for (const auto& f : unwritable) m += "  " + f + "\n";
    m += grant_instructions();
  }
  return m;
}

PrivilegeReport check_privileges(const Platform& p, const std::vector<ResolvedPoint>& points,
                                 const ApplyOptions& opt) {
  PrivilegeReport r;
  const SysfsRoot root(p.sysfs_root);
  if (as_root_on_real_board(p.sysfs_root)) {
    r.problems.push_back(
        "edpbench does not change clocks as root: run it as a user in group edpbench (the "
        "service user is one) with the grant below");
  }
  bool tool_needed = false;
  std::set<std::string> bad;
  for (const auto& pt : points) {
    const bool by_tool = !opt.nvpmodel_tool.empty() && pt.point.nvpmodel >= 0;
    tool_needed = tool_needed || by_tool;
    for (const auto& w : pt.writes) {
      if (by_tool && w.from_mode) continue;
      if (!writable(root.path(w.path))) bad.insert(w.path);
    }
  }
  if (tool_needed && find_tool(opt.nvpmodel_tool).empty()) {
    r.problems.push_back("nvpmodel tool '" + opt.nvpmodel_tool + "' not found on PATH");
  }
  r.unwritable.assign(bad.begin(), bad.end());
  return r;
}

SavedState capture_state(const Platform& p, const std::vector<ResolvedPoint>& points,
                         const ApplyOptions& opt) {
  const SysfsRoot root(p.sysfs_root);
  SavedState s;
  s.sysfs_root = root.root();
  s.nvpmodel_id = p.nvpmodel_id;
  s.pid = static_cast<long>(::getpid());
  for (const auto& pt : points) {
    if (!opt.nvpmodel_tool.empty() && pt.point.nvpmodel >= 0) s.nvpmodel_tool = opt.nvpmodel_tool;
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
  o += "nvpmodel_tool=" + s.nvpmodel_tool + "\n";
  o += "pid=" + std::to_string(s.pid) + "\n";
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
    } else if (key == "nvpmodel_tool") {
      s.nvpmodel_tool = value;
    } else if (key == "pid") {
      s.pid = parse_long(value).value_or(0);
    } else if (key == "file") {
      const auto sep = value.rfind('=');
      if (sep == std::string::npos || value.empty() || value[0] != '/') {
        throw UsageError("state file line " + std::to_string(n) + ": expected file=/path=value");
      }
      s.files.push_back({value.substr(0, sep), value.substr(sep + 1), "", false});
    } else {
      throw UsageError("state file line " + std::to_string(n) + ": unknown key '" + key + "'");
    }
  }
  if (!versioned) throw UsageError("not an edpbench state file (no version=1 line)");
  return s;
}

void write_state(const SavedState& s, const std::vector<std::string>& paths) {
  const std::string text = format_state(s);
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

std::string ApplyResult::summary() const {
  std::string s = name + ":";
  for (const auto& w : read_back)
    s += " " + basename_of(dirname_of(w.path)) + "/" + basename_of(w.path) + "=" + w.value;
  char buf[48];
  snprintf(buf, sizeof buf, " (settled in %.2f s)", settle_s);
  s += buf;
  for (const auto& w : warnings) s += "; warning: " + w;
  for (const auto& f : failures) s += "; failed: " + f;
  return s;
}

ApplyResult apply_point(const Platform& p, const ResolvedPoint& point, const ApplyOptions& opt) {
  if (as_root_on_real_board(p.sysfs_root)) {
    throw UsageError(
        "edpbench does not change clocks as root: run it as a user in group edpbench "
        "(docs/deployment.md, \"Changing clocks\")");
  }
  const SysfsRoot root(p.sysfs_root);
  const std::string& name = point.point.name;
  const std::vector<ClockWrite> before = current_values(root, point.writes);
  ApplyResult r;
  r.name = name;
  const double t0 = now_s();

  auto undo_and_throw = [&](const std::string& why) {
    const auto failures = write_back(root, before, opt);
    std::string msg = "operating point '" + name + "': " + why;
    msg += failures.empty() ? "; the files it had changed were restored"
                            : "; undoing also failed: " + join(failures, "; ");
    throw ApplyError(msg);
  };

  std::vector<ClockWrite> to_write = point.writes;
  if (!opt.nvpmodel_tool.empty() && point.point.nvpmodel >= 0) {
    if (auto err = run_tool(opt.nvpmodel_tool, point.point.nvpmodel); !err.empty()) {
      undo_and_throw(err);
    }
    r.written.push_back({"nvpmodel -m " + std::to_string(point.point.nvpmodel), "", "", true});
    to_write.erase(std::remove_if(to_write.begin(), to_write.end(),
                                  [](const ClockWrite& w) { return w.from_mode; }),
                   to_write.end());
  }
  for (const auto& w : ordered(root, to_write)) {
    if (const int err = write_one(root.path(w.path), w.value, opt)) {
      undo_and_throw("writing '" + w.value + "' to " + w.path + " failed: " + std::strerror(err));
    }
    r.written.push_back(w);
  }

  // Settle: every file reads back its value, and every clock with a new cap
  // runs at or below it, polled until settle_timeout_s.
  const double deadline = t0 + opt.settle_timeout_s;
  std::vector<std::string> pending;
  auto clocks_above_cap = [&]() {
    std::vector<std::string> out;
    for (const auto& w : point.writes) {
      const std::string b = basename_of(w.path);
      std::string cur;
      if (b == "scaling_max_freq") cur = dirname_of(w.path) + "/scaling_cur_freq";
      if (b == "max_freq") cur = dirname_of(w.path) + "/cur_freq";
      if (cur.empty()) continue;
      const auto c = root.read_long(cur);
      const auto cap = root.read_long(w.path);
      if (c && cap && *c > *cap) {
        out.push_back(cur + " is " + std::to_string(*c) + ", above the cap " +
                      std::to_string(*cap));
      }
    }
    return out;
  };
  for (;;) {
    pending.clear();
    for (const auto& w : point.writes) {
      if (!holds(root, w)) pending.push_back(w.path);
    }
    const auto above = pending.empty() ? clocks_above_cap() : std::vector<std::string>{};
    if (pending.empty() && above.empty()) break;
    if (now_s() >= deadline) {
      if (!pending.empty()) {
        const auto now = root.read_line(pending.front());
        const ClockWrite* w = nullptr;
        for (const auto& x : point.writes) {
          if (x.path == pending.front()) w = &x;
        }
        undo_and_throw(pending.front() + " reads '" + now.value_or("(unreadable)") + "', not '" +
                       (w ? w->value : "") + "', after " + std::to_string(opt.settle_timeout_s) +
                       " s");
      }
      r.warnings = above;
      break;
    }
    std::this_thread::sleep_for(std::chrono::duration<double>(opt.poll_interval_s));
  }
  r.settle_s = now_s() - t0;
  r.read_back = current_values(root, point.writes);
  return r;
}

ApplyResult restore_state(const SavedState& s, const ApplyOptions& opt) {
  const SysfsRoot root(s.sysfs_root);
  ApplyResult r;
  r.name = "restore";
  const double t0 = now_s();
  if (!s.nvpmodel_tool.empty() && s.nvpmodel_id >= 0) {
    if (auto err = run_tool(s.nvpmodel_tool, s.nvpmodel_id); !err.empty()) {
      r.failures.push_back(err);
    }
  }
  std::vector<ClockWrite> todo;
  for (const auto& f : s.files) {
    if (!holds(root, f)) todo.push_back(f);
  }
  for (const auto& w : ordered(root, todo)) {
    if (const int err = write_one(root.path(w.path), w.value, opt)) {
      r.failures.push_back(w.path + ": writing '" + w.value + "' failed: " + std::strerror(err));
    } else {
      r.written.push_back(w);
    }
  }
  const double deadline = t0 + opt.settle_timeout_s;
  for (;;) {
    bool all = true;
    for (const auto& w : r.written) all = all && holds(root, w);
    if (all || now_s() >= deadline) break;
    std::this_thread::sleep_for(std::chrono::duration<double>(opt.poll_interval_s));
  }
  for (const auto& w : r.written) {
    if (!holds(root, w)) {
      r.failures.push_back(w.path + " reads '" + root.read_line(w.path).value_or("(unreadable)") +
                           "', not the saved '" + w.value + "'");
    }
  }
  r.settle_s = now_s() - t0;
  r.read_back = current_values(root, s.files);
  return r;
}

std::optional<ApplyResult> restore_leftover(const std::vector<std::string>& paths,
                                            const std::string& sysfs_root_override,
                                            const ApplyOptions& opt) {
  for (const auto& path : paths) {
    std::error_code ec;
    if (!fs::exists(path, ec)) continue;
    const SysfsRoot any;
    auto text = any.read(path);
    if (!text) throw UsageError("cannot read the state file " + path);
    SavedState s;
    try {
      s = parse_state(*text);
    } catch (const UsageError& e) {
      throw UsageError(path + ": " + e.what());
    }
    if (pid_is_live_edpbench(s.pid)) {
      throw UsageError(path + " belongs to edpbench process " + std::to_string(s.pid) +
                       ", which is still running; it restores the board itself when it ends");
    }
    if (!sysfs_root_override.empty()) s.sysfs_root = sysfs_root_override;
    ApplyResult r = restore_state(s, opt);
    if (!r.failures.empty()) {
      throw std::runtime_error("restoring the board from " + path + " failed for " +
                               join(r.failures, "; ") + " (the state file is kept)\n" +
                               grant_instructions());
    }
    for (const auto& other : paths) fs::remove(other, ec);
    return r;
  }
  return std::nullopt;
}

OperatingPointSession::OperatingPointSession(const Platform& p,
                                             const std::vector<OperatingPoint>& points,
                                             std::vector<std::string> state_paths, ApplyOptions opt)
    : platform_(p), state_paths_(std::move(state_paths)), opt_(std::move(opt)) {
  points_ = validate_points(platform_, points);
  const PrivilegeReport priv = check_privileges(platform_, points_, opt_);
  if (!priv.ok()) throw UsageError(priv.message());
  saved_ = capture_state(platform_, points_, opt_);
  write_state(saved_, state_paths_);
}

OperatingPointSession::~OperatingPointSession() {
  try {
    restore();
  } catch (...) {
  }
}

ApplyResult OperatingPointSession::apply(size_t index) {
  changed_ = true;
  restored_ = false;
  return apply_point(platform_, points_.at(index), opt_);
}

ApplyResult OperatingPointSession::restore() {
  ApplyResult r;
  r.name = "restore";
  if (restored_) return r;
  if (changed_) r = restore_state(saved_, opt_);
  if (r.failures.empty()) {
    std::error_code ec;
    for (const auto& path : state_paths_) fs::remove(path, ec);
    restored_ = true;
  }
  return r;
}

OfferedPoints offered_points(const Platform& p) {
  const SysfsRoot root(p.sysfs_root);
  OfferedPoints o;
  if (auto text = root.read(nvpmodel_conf_path(root, p.board))) {
    const auto conf = parse_nvpmodel_config(*text);
    for (const auto& m : conf.modes) o.nvpmodel_modes.emplace_back(m.id, m.name);
    o.nvpmodel_default = conf.default_mode;
  }
  for (const auto& pol : read_policies(root, p)) {
    const int lead = pol.cpus.front();
    const auto rates = read_longs(root, cpu_path(lead, "/cpufreq/scaling_available_frequencies"));
    o.cpu_khz.emplace_back("cpu" + format_cpu_list(pol.cpus), rates);
    if (o.cpu_governors.empty()) {
      o.cpu_governors = read_words(root, cpu_path(lead, "/cpufreq/scaling_available_governors"));
    }
  }
  if (!p.gpu_devfreq_path.empty())
    o.gpu_hz = read_longs(root, p.gpu_devfreq_path + "/available_frequencies");
  o.emc_cap = root.exists(kEmcCap);
  return o;
}

}  // namespace edp::platform
