// Operating points, resolution: what a point means on this board. Each
// setting is checked against the files the kernel offers (rate tables,
// governors, present CPUs) and /etc/nvpmodel.conf, and becomes a set of
// sysfs writes; nothing is changed here. See operating_point.h.
#include <algorithm>
#include <map>
#include <set>

#include "common/errors.h"
#include "platform/board.h"
#include "platform/cpu_list.h"
#include "platform/nvpmodel_conf.h"
#include "platform/operating_point.h"
#include "platform/operating_point_detail.h"

namespace edp::platform {
namespace {

using namespace detail;

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
                 "/scaling_available_governors (" + (govs.empty() ? "missing" : join(govs, " ")) +
                 ")");
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
               " lists (" + join(rates, " ") + ")");
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
           " lists; valid: " + join(rates, " "));
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

}  // namespace

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
