// resolve_cpu_set(): the config's `cpus:` value (DESIGN §7) as CPU ids for
// the runner's affinity mask.
#include <algorithm>
#include <cctype>
#include <stdexcept>

#include "common/errors.h"
#include "common/text.h"
#include "platform/boards.h"
#include "platform/cpu_list.h"
#include "platform/platform.h"

namespace edp::platform {
namespace {

bool is_numeric_term(const std::string& t) {
  return std::all_of(t.begin(), t.end(), [](unsigned char c) {
    return std::isdigit(c) != 0 || c == '-' || std::isspace(c) != 0;
  });
}

std::vector<int> cluster_cpus(const Platform& p, const std::string& name, bool online_only) {
  std::vector<int> ids;
  for (const auto& c : p.cpus) {
    if (c.cluster == name && (c.online || !online_only)) ids.push_back(c.id);
  }
  return ids;
}

// "a57 (CPUs 0,3-5), denver (CPUs 1-2)"
std::string describe_clusters(const Platform& p) {
  std::string out;
  for (const auto& name : p.clusters()) {
    if (!out.empty()) out += ", ";
    out += name + " (CPUs " + format_cpu_list(cluster_cpus(p, name, false)) + ")";
  }
  return out.empty() ? "none identified" : out;
}

std::string valid_forms(const Platform& p) {
  std::string names = "all";
  for (const auto& name : p.clusters()) names += ", " + name;
  return "expected " + names + ", or a CPU list such as \"0,3-5\"";
}

std::string all_ids(const Platform& p) {
  std::vector<int> ids;
  for (const auto& c : p.cpus) ids.push_back(c.id);
  return format_cpu_list(ids);
}

// Jetson power modes switch cores off (TX2 MAXQ: both Denver cores).
std::string mode_hint(const Platform& p) {
  if (!p.is_jetson() || p.nvpmodel_id < 0) return "";
  return "; nvpmodel mode " + (p.nvpmodel_mode.empty() ? "?" : p.nvpmodel_mode) + " (id " +
         std::to_string(p.nvpmodel_id) +
         ") is active, and `sudo nvpmodel -m 0` (MAXN) brings every core online";
}

}  // namespace

std::vector<int> resolve_cpu_set(const Platform& p, const std::string& spec) {
  const std::string where = "cpus \"" + spec + "\": ";
  if (trim(spec).empty()) throw UsageError(where + "empty CPU set; " + valid_forms(p));
  if (p.cpus.empty()) {
    throw std::runtime_error(where + "no CPUs were found under sysfs root '" +
                             (p.sysfs_root.empty() ? "/" : p.sysfs_root) + "'");
  }
  std::vector<int> result;
  size_t start = 0;
  while (true) {
    const size_t comma = spec.find(',', start);
    const std::string term =
        trim(spec.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    const std::string name = ascii_lower(term);
    if (term.empty()) {
      throw UsageError(where + "empty term in the list; " + valid_forms(p));
    } else if (name == "all") {
      const auto ids = p.online_cpus();
      result.insert(result.end(), ids.begin(), ids.end());
    } else if (is_numeric_term(term)) {
      std::vector<int> ids;
      try {
        ids = parse_cpu_list(term);
      } catch (const std::invalid_argument& e) {
        throw UsageError(where + e.what() + "; " + valid_forms(p));
      }
      for (int id : ids) {
        const int i = p.cpu_index(id);
        if (i < 0) {
          throw UsageError(where + "CPU " + std::to_string(id) +
                           " does not exist (CPUs on this machine: " + all_ids(p) + ")");
        }
        if (!p.cpus[i].online) {
          throw UsageError(where + "CPU " + std::to_string(id) + " is offline (online CPUs: " +
                           format_cpu_list(p.online_cpus()) + ")" + mode_hint(p));
        }
      }
      result.insert(result.end(), ids.begin(), ids.end());
    } else {
      const auto clusters = p.clusters();
      if (std::find(clusters.begin(), clusters.end(), name) != clusters.end()) {
        const auto ids = cluster_cpus(p, name, true);
        if (ids.empty()) {
          throw UsageError(where + "every CPU of the " + name + " cluster (CPUs " +
                           format_cpu_list(cluster_cpus(p, name, false)) + ") is offline" +
                           mode_hint(p));
        }
        result.insert(result.end(), ids.begin(), ids.end());
      } else if (const auto known = cpu_cluster_names();
                 std::find(known.begin(), known.end(), name) != known.end()) {
        // A cluster of another board (boards.h): "empty here", not "unknown".
        throw UsageError(where + "this machine has no " + name +
                         " cores, so the set is empty; its clusters: " + describe_clusters(p));
      } else {
        throw UsageError(where + "unknown CPU set name '" + term + "'; " + valid_forms(p));
      }
    }
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  std::sort(result.begin(), result.end());
  result.erase(std::unique(result.begin(), result.end()), result.end());
  if (result.empty()) {
    throw UsageError(where + "no online CPUs (CPUs on this machine: " + all_ids(p) + ")");
  }
  return result;
}

}  // namespace edp::platform
