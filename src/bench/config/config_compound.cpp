// The config keys whose values are structures (see config_compound.h).
#include "bench/config/config_compound.h"

#include <algorithm>
#include <map>
#include <regex>
#include <set>

#include "common/errors.h"
#include "common/text.h"
#include "platform/boards.h"

namespace edp::bench {

void read_sizes(ConfigReader& r, const YAML::Node& n, Config& c) {
  r.expect_map(n, "sizes");
  r.check_keys(
      n,
      [&] {
        std::vector<std::string> names;  // any name; check_keys catches the repeats
        for (const auto& kv : n)
          if (kv.first.IsScalar()) names.push_back(kv.first.Scalar());
        return names;
      }(),
      "sizes");
  c.sizes.clear();
  std::set<std::string> seen;
  for (const auto& kv : n) {
    r.guard([&] {
      SizeSpec s;
      s.name = r.key_name(kv.first);
      if (!seen.insert(s.name).second) return;  // reported by check_keys
      if (const std::string why = label_problem(s.name); !why.empty())
        r.fail(kv.first, "size name " + why);
      const YAML::Node& v = kv.second;
      const std::string what = "size '" + s.name + "'";
      r.expect_map(v, what);
      r.check_keys(v, {"n", "d_in", "h", "d_out"}, what);
      for (const char* k : {"n", "d_in", "h", "d_out"})
        if (!v[k]) r.error(v, what + " needs n, d_in, h and d_out (missing " + k + ")");
      const int64_t max_dim = int64_t{1} << 24;
      const std::pair<const char*, int64_t*> dims[] = {
          {"n", &s.n}, {"d_in", &s.d_in}, {"h", &s.h}, {"d_out", &s.d_out}};
      for (const auto& [k, out] : dims)
        if (v[k]) r.guard([&, k = k, out = out] { *out = r.integer(v[k], k, 1, max_dim); });
      c.where["sizes." + s.name] = r.where(kv.first);
      c.sizes.push_back(s);
    });
  }
  if (n.size() == 0) r.fail(n, "'sizes' must name at least one size");
}

void emit_sizes(YAML::Emitter& e, const Config& c) {
  e << YAML::BeginMap;
  for (const auto& s : c.sizes) {
    e << YAML::Key << s.name << YAML::Value << YAML::Flow << YAML::BeginMap << YAML::Key << "n"
      << YAML::Value << s.n << YAML::Key << "d_in" << YAML::Value << s.d_in << YAML::Key << "h"
      << YAML::Value << s.h << YAML::Key << "d_out" << YAML::Value << s.d_out << YAML::EndMap;
  }
  e << YAML::EndMap;
}

namespace {

// `cpus:` is `all`, a cluster name the platform layer knows (whether this
// board has it is checked against the machine by plan and run), or a list.
void check_cpu_set_syntax(ConfigReader& r, const YAML::Node& n) {
  const std::string s = r.scalar(n, "cpus");
  static const std::regex list("^[0-9]+(-[0-9]+)?(,[0-9]+(-[0-9]+)?)*$");
  const std::vector<std::string> names = platform::cpu_cluster_names();
  if (s == "all" || std::find(names.begin(), names.end(), s) != names.end() ||
      std::regex_match(s, list))
    return;
  r.fail(n, "'cpus' = '" + s + "' is not valid (expected all, a cluster name (" +
                join_names(names) + ") or a list like \"0,3-5\")");
}

std::string device_identity(const DeviceSpec& d) {
  return d.kind + "|" + std::to_string(d.threads) + "|" + d.cpus + "|" + d.gemm + "|" +
         std::to_string(d.index);
}

}  // namespace

void read_devices(ConfigReader& r, const YAML::Node& n, Config& c) {
  if (!n.IsSequence()) r.fail(n, "'devices' must be a list of {kind: cpu|gpu|reference, ...}");
  c.devices.clear();
  std::map<std::string, int> seen;
  std::set<std::string> identities;
  for (const YAML::Node& item : n) {
    r.guard([&] {
      r.expect_map(item, "a device");
      if (!item["kind"]) r.fail(item, "a device needs 'kind' (cpu, gpu or reference)");
      DeviceSpec d;
      d.kind = r.one_of(item["kind"], "kind", {"cpu", "gpu", "reference"});
      if (d.kind == "gpu") {
        r.check_keys(item, {"kind", "index"}, "a gpu device");
        if (item["index"]) d.index = static_cast<int>(r.integer(item["index"], "index", 0, 63));
      } else if (d.kind == "cpu") {
        r.check_keys(item, {"kind", "threads", "cpus", "gemm"}, "a cpu device");
        if (item["threads"])
          r.guard([&] {
            d.threads = static_cast<int>(r.integer(item["threads"], "threads", 0, 4096));
          });
        if (item["cpus"])
          r.guard([&] {
            check_cpu_set_syntax(r, item["cpus"]);
            d.cpus = item["cpus"].Scalar();
          });
        if (item["gemm"])
          r.guard([&] {
            d.gemm = r.one_of(item["gemm"], "gemm", {"auto", "eigen", "openblas", "blis"});
          });
      } else {
        r.check_keys(item, {"kind"}, "a reference device");
      }
      if (!identities.insert(device_identity(d)).second)
        r.fail(item, "this device is listed twice with the same settings: remove the repeat");
      const int k = ++seen[d.kind];
      d.label = k == 1 ? d.kind : d.kind + "#" + std::to_string(k);
      c.where["devices." + d.label] = r.where(item);
      if (item["cpus"]) c.where["devices." + d.label + ".cpus"] = r.where(item["cpus"]);
      if (item["gemm"]) c.where["devices." + d.label + ".gemm"] = r.where(item["gemm"]);
      c.devices.push_back(d);
    });
  }
  if (n.size() == 0) r.fail(n, "'devices' must list at least one device");
}

void emit_devices(YAML::Emitter& e, const Config& c) {
  e << YAML::BeginSeq;
  for (const auto& d : c.devices) {
    e << YAML::Flow << YAML::BeginMap << YAML::Key << "kind" << YAML::Value << d.kind;
    if (d.kind == "cpu")
      e << YAML::Key << "threads" << YAML::Value << d.threads << YAML::Key << "cpus" << YAML::Value
        << d.cpus << YAML::Key << "gemm" << YAML::Value << d.gemm;
    if (d.kind == "gpu") e << YAML::Key << "index" << YAML::Value << d.index;
    e << YAML::EndMap;
  }
  e << YAML::EndSeq;
}

namespace {
// The operating point's numeric keys, in the order they are written.
const std::pair<const char*, long platform::OperatingPoint::*> kPointHz[] = {
    {"cpu_max_khz", &platform::OperatingPoint::cpu_max_khz},
    {"cpu_min_khz", &platform::OperatingPoint::cpu_min_khz},
    {"gpu_max_hz", &platform::OperatingPoint::gpu_max_hz},
    {"gpu_min_hz", &platform::OperatingPoint::gpu_min_hz},
    {"emc_max_hz", &platform::OperatingPoint::emc_max_hz},
};
}  // namespace

// DESIGN §10: a named nvpmodel mode or explicit limits (or both). Whether
// the board offers them is checked against it by platform::validate_points
// when the sweep starts.
void read_points(ConfigReader& r, const YAML::Node& n, Config& c) {
  if (!n.IsSequence()) r.fail(n, "'operating_points' must be a list of {name: ..., ...} entries");
  c.operating_points.clear();
  for (const YAML::Node& item : n) {
    r.guard([&] {
      r.expect_map(item, "an operating point");
      r.check_keys(item,
                   {"name", "nvpmodel", "cpu_max_khz", "cpu_min_khz", "gpu_max_hz", "gpu_min_hz",
                    "emc_max_hz", "cpus_online", "cpu_governor"},
                   "an operating point");
      if (!item["name"]) r.fail(item, "an operating point needs a 'name'");
      platform::OperatingPoint p;
      p.name = r.scalar(item["name"], "name");
      if (const std::string why = label_problem(p.name); !why.empty())
        r.fail(item["name"], "operating point name " + why);
      // The places plan and run name when the board refuses a setting.
      c.where["operating_points." + p.name] = r.where(item);
      for (const auto& kv : item)
        if (kv.first.IsScalar())
          c.where["operating_points." + p.name + "." + kv.first.Scalar()] = r.where(kv.second);
      for (const auto& other : c.operating_points)
        if (other.name == p.name)
          r.fail(item["name"], "operating point '" + p.name + "' is named twice");
      if (item["nvpmodel"])
        r.guard(
            [&] { p.nvpmodel = static_cast<int>(r.integer(item["nvpmodel"], "nvpmodel", 0, 99)); });
      for (const auto& [key, member] : kPointHz)
        if (item[key])
          r.guard([&, key = key, member = member] {
            p.*member = static_cast<long>(r.integer(item[key], key, 0, 100000000000LL));
          });
      if (item["cpus_online"]) p.cpus_online = r.scalar(item["cpus_online"], "cpus_online");
      if (item["cpu_governor"]) p.cpu_governor = r.scalar(item["cpu_governor"], "cpu_governor");
      c.operating_points.push_back(std::move(p));
    });
  }
}

void emit_points(YAML::Emitter& e, const Config& c) {
  e << YAML::BeginSeq;
  for (const auto& p : c.operating_points) {
    e << YAML::Flow << YAML::BeginMap << YAML::Key << "name" << YAML::Value << p.name;
    if (p.nvpmodel >= 0) e << YAML::Key << "nvpmodel" << YAML::Value << p.nvpmodel;
    for (const auto& [key, member] : kPointHz)
      if (p.*member >= 0) e << YAML::Key << key << YAML::Value << p.*member;
    if (!p.cpus_online.empty()) e << YAML::Key << "cpus_online" << YAML::Value << p.cpus_online;
    if (!p.cpu_governor.empty()) e << YAML::Key << "cpu_governor" << YAML::Value << p.cpu_governor;
    e << YAML::EndMap;
  }
  e << YAML::EndSeq;
}

void read_total_rails(ConfigReader& r, const YAML::Node& n, Config& c) {
  if (n.IsScalar() && n.Scalar() == "auto")
    c.power.total_rails.clear();
  else if (n.IsSequence() && n.size() == 0)
    r.fail(n,
           "'total_rails' is an empty list: write auto to let edpbench choose, or name the rails");
  else
    c.power.total_rails = r.string_list(n, "total_rails");
}

void emit_total_rails(YAML::Emitter& e, const Config& c) {
  if (c.power.total_rails.empty())
    e << "auto";
  else
    e << YAML::Flow << c.power.total_rails;
}

void read_min_run_s(ConfigReader& r, const YAML::Node& n, Config& c) {
  c.power.min_run_auto = n.IsScalar() && n.Scalar() == "auto";
  if (!c.power.min_run_auto) c.power.min_run_s = r.number(n, "min_run_s", 0, 86400);
}

void emit_min_run_s(YAML::Emitter& e, const Config& c) {
  if (c.power.min_run_auto)
    e << "auto";
  else
    e << c.power.min_run_s;
}

std::vector<std::string> read_size_names(ConfigReader& r, const YAML::Node& n,
                                         const std::string& key, const Config& c) {
  std::vector<std::string> names = r.string_list(n, key);
  std::vector<std::string> valid;
  for (const auto& s : c.sizes) valid.push_back(s.name);
  for (const YAML::Node& item : n)
    if (item.IsScalar() && std::find(valid.begin(), valid.end(), item.Scalar()) == valid.end())
      r.error(item, "unknown size '" + item.Scalar() + "' in " + key +
                        " (sizes: " + join_names(valid) + ")");
  if (names.empty()) r.fail(n, "'" + key + "' must name at least one size");
  return names;
}

}  // namespace edp::bench
