#include "bench/config.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <regex>
#include <set>
#include <sstream>

#include "common/errors.h"

namespace edp::bench {

const std::vector<std::string>& known_workloads() {
  static const std::vector<std::string> names{"tensors", "autograd", "custom_relu"};
  return names;
}

namespace {

std::string join(const std::vector<std::string>& v, const std::string& sep = ", ") {
  std::string out;
  for (size_t i = 0; i < v.size(); ++i) out += (i ? sep : "") + v[i];
  return out;
}

// "FILE:LINE:COL". A node without a position (an empty document, a node
// yaml-cpp made up) is reported at 1:1: every error has a line and column.
std::string located(const std::string& origin, const YAML::Mark& m) {
  const bool known = m.line >= 0 && m.column >= 0;
  return origin + ":" + std::to_string(known ? m.line + 1 : 1) + ":" +
         std::to_string(known ? m.column + 1 : 1);
}

// Reads one YAML document and reports every problem as FILE:LINE:COL.
class Reader {
 public:
  explicit Reader(std::string origin) : origin_(std::move(origin)) {}

  [[noreturn]] void fail(const YAML::Node& at, const std::string& msg) const {
    throw UsageError(located(origin_, at.Mark()) + ": " + msg);
  }

  void expect_map(const YAML::Node& n, const std::string& what) const {
    if (!n.IsMap()) fail(n, what + " must be a mapping (key: value)");
  }

  // A mapping key as text; a key that is itself a list or mapping ("? [a]: 1")
  // is an error here rather than a YAML::BadConversion later.
  std::string key_name(const YAML::Node& k) const {
    if (!k.IsScalar()) fail(k, "a key must be a plain name, not a list or mapping");
    return k.Scalar();
  }

  // Unknown keys are errors, never silently ignored.
  void check_keys(const YAML::Node& map, const std::vector<std::string>& allowed,
                  const std::string& section) const {
    for (const auto& kv : map) {
      const std::string key = key_name(kv.first);
      if (std::find(allowed.begin(), allowed.end(), key) == allowed.end())
        fail(kv.first,
             "unknown key '" + key + "' in " + section + " (valid keys: " + join(allowed) + ")");
    }
  }

  std::string scalar(const YAML::Node& n, const std::string& key) const {
    if (!n.IsScalar()) fail(n, "'" + key + "' must be a single value");
    return n.Scalar();
  }

  double number(const YAML::Node& n, const std::string& key, double lo, double hi) const {
    const std::string s = scalar(n, key);
    char* end = nullptr;
    errno = 0;
    const double v = std::strtod(s.c_str(), &end);
    if (s.empty() || end != s.c_str() + s.size() || !std::isfinite(v))
      fail(n, "'" + key + "' must be a number, got '" + s + "'");
    if (v < lo || v > hi)
      fail(n, "'" + key + "' = " + s + " is out of range [" + fmt(lo) + ", " + fmt(hi) + "]");
    return v;
  }

  int64_t integer(const YAML::Node& n, const std::string& key, int64_t lo, int64_t hi) const {
    const std::string s = scalar(n, key);
    char* end = nullptr;
    errno = 0;
    const long long v = std::strtoll(s.c_str(), &end, 0);  // accepts 0x40 for addresses
    if (s.empty() || end != s.c_str() + s.size() || errno == ERANGE)
      fail(n, "'" + key + "' must be an integer, got '" + s + "'");
    if (v < lo || v > hi)
      fail(n, "'" + key + "' = " + s + " is out of range [" + std::to_string(lo) + ", " +
                  std::to_string(hi) + "]");
    return v;
  }

  bool boolean(const YAML::Node& n, const std::string& key) const {
    const std::string s = scalar(n, key);
    if (s == "true" || s == "True" || s == "yes" || s == "on") return true;
    if (s == "false" || s == "False" || s == "no" || s == "off") return false;
    fail(n, "'" + key + "' must be true or false, got '" + s + "'");
  }

  std::string one_of(const YAML::Node& n, const std::string& key,
                     const std::vector<std::string>& allowed) const {
    const std::string s = scalar(n, key);
    if (std::find(allowed.begin(), allowed.end(), s) == allowed.end())
      fail(n, "'" + key + "' = '" + s + "' is not valid (expected one of: " + join(allowed) + ")");
    return s;
  }

  std::vector<std::string> string_list(const YAML::Node& n, const std::string& key) const {
    if (!n.IsSequence()) fail(n, "'" + key + "' must be a list, e.g. [a, b]");
    std::vector<std::string> out;
    for (const auto& item : n) out.push_back(scalar(item, key));
    return out;
  }

 private:
  static std::string fmt(double v) {
    std::ostringstream ss;
    ss << v;
    return ss.str();
  }
  std::string origin_;
};

const std::vector<std::string> kSources{"auto", "jetson", "ina226", "hwmon",
                                        "rapl", "nvml",   "trace",  "none"};

void parse_sizes(const Reader& r, const YAML::Node& n, Config& c) {
  r.expect_map(n, "sizes");
  c.sizes.clear();
  for (const auto& kv : n) {
    SizeSpec s;
    s.name = r.key_name(kv.first);
    const YAML::Node& v = kv.second;
    r.expect_map(v, "size '" + s.name + "'");
    r.check_keys(v, {"n", "d_in", "h", "d_out"}, "size '" + s.name + "'");
    for (const char* k : {"n", "d_in", "h", "d_out"})
      if (!v[k]) r.fail(v, "size '" + s.name + "' needs n, d_in, h and d_out (missing " + k + ")");
    const int64_t max_dim = int64_t{1} << 24;
    s.n = r.integer(v["n"], "n", 1, max_dim);
    s.d_in = r.integer(v["d_in"], "d_in", 1, max_dim);
    s.h = r.integer(v["h"], "h", 1, max_dim);
    s.d_out = r.integer(v["d_out"], "d_out", 1, max_dim);
    c.sizes.push_back(s);
  }
  if (c.sizes.empty()) r.fail(n, "'sizes' must name at least one size");
}

void check_cpu_set_syntax(const Reader& r, const YAML::Node& n) {
  const std::string s = r.scalar(n, "cpus");
  static const std::regex list("^[0-9]+(-[0-9]+)?(,[0-9]+(-[0-9]+)?)*$");
  if (s == "all" || s == "a57" || s == "denver" || std::regex_match(s, list)) return;
  r.fail(n,
         "'cpus' = '" + s + "' is not valid (expected all, a57, denver or a list like \"0,3-5\")");
}

void parse_devices(const Reader& r, const YAML::Node& n, Config& c) {
  if (!n.IsSequence()) r.fail(n, "'devices' must be a list of {kind: cpu|gpu|reference, ...}");
  c.devices.clear();
  std::map<std::string, int> seen;
  for (const auto& item : n) {
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
        d.threads = static_cast<int>(r.integer(item["threads"], "threads", 0, 4096));
      if (item["cpus"]) {
        check_cpu_set_syntax(r, item["cpus"]);
        d.cpus = item["cpus"].Scalar();
      }
      if (item["gemm"]) d.gemm = r.one_of(item["gemm"], "gemm", {"auto", "eigen", "openblas"});
    } else {
      r.check_keys(item, {"kind"}, "a reference device");
    }
    const int k = ++seen[d.kind];
    d.label = k == 1 ? d.kind : d.kind + "#" + std::to_string(k);
    c.devices.push_back(d);
  }
  if (c.devices.empty()) r.fail(n, "'devices' must list at least one device");
}

void parse_power(const Reader& r, const YAML::Node& n, PowerConfig& p) {
  r.expect_map(n, "power");
  r.check_keys(n,
               {"source", "rate_hz", "total_rails", "baseline_s", "baseline_every", "min_run_s",
                "sampler_cpu", "ina226", "trace"},
               "power");
  if (n["source"]) p.source = r.one_of(n["source"], "source", kSources);
  if (n["rate_hz"]) p.rate_hz = r.number(n["rate_hz"], "rate_hz", 1, 10000);
  if (const YAML::Node t = n["total_rails"]) {
    if (t.IsScalar() && t.as<std::string>() == "auto")
      p.total_rails.clear();
    else
      p.total_rails = r.string_list(t, "total_rails");
  }
  if (n["baseline_s"]) p.baseline_s = r.number(n["baseline_s"], "baseline_s", 0, 3600);
  if (n["baseline_every"])
    p.baseline_every =
        static_cast<int>(r.integer(n["baseline_every"], "baseline_every", 0, 1000000));
  if (const YAML::Node m = n["min_run_s"]) {
    p.min_run_auto = m.IsScalar() && m.as<std::string>() == "auto";
    if (!p.min_run_auto) p.min_run_s = r.number(m, "min_run_s", 0, 86400);
  }
  if (n["sampler_cpu"])
    p.sampler_cpu = static_cast<int>(r.integer(n["sampler_cpu"], "sampler_cpu", -1, 4095));
  if (const YAML::Node i = n["ina226"]) {
    r.expect_map(i, "power.ina226");
    r.check_keys(i,
                 {"bus", "address", "shunt_ohm", "max_current_a", "averages", "conversion_us",
                  "poll_ready", "force"},
                 "power.ina226");
    Ina226Config& c = p.ina226;
    if (i["bus"]) c.bus = r.scalar(i["bus"], "bus");
    // INA226 addresses are 0x40-0x4F (datasheet SBOS547, table 2: A1/A0 pins).
    if (i["address"]) c.address = static_cast<int>(r.integer(i["address"], "address", 0x40, 0x4f));
    if (i["shunt_ohm"]) c.shunt_ohm = r.number(i["shunt_ohm"], "shunt_ohm", 1e-5, 100);
    if (i["max_current_a"])
      c.max_current_a = r.number(i["max_current_a"], "max_current_a", 1e-4, 100);
    if (i["averages"]) {
      c.averages = static_cast<int>(r.integer(i["averages"], "averages", 1, 1024));
      static const std::set<int> ok{1, 4, 16, 64, 128, 256, 512, 1024};
      if (!ok.count(c.averages))
        r.fail(i["averages"], "'averages' must be one of 1, 4, 16, 64, 128, 256, 512, 1024");
    }
    if (i["conversion_us"]) {
      c.conversion_us = static_cast<int>(r.integer(i["conversion_us"], "conversion_us", 140, 8244));
      static const std::set<int> ok{140, 204, 332, 588, 1100, 2116, 4156, 8244};
      if (!ok.count(c.conversion_us))
        r.fail(i["conversion_us"],
               "'conversion_us' must be one of 140, 204, 332, 588, 1100, 2116, 4156, 8244");
    }
    if (i["poll_ready"]) c.poll_ready = r.boolean(i["poll_ready"], "poll_ready");
    if (i["force"]) c.force = r.boolean(i["force"], "force");
  }
  if (const YAML::Node t = n["trace"]) {
    r.expect_map(t, "power.trace");
    r.check_keys(t, {"file", "loop"}, "power.trace");
    if (t["file"]) p.trace.file = r.scalar(t["file"], "file");
    if (t["loop"]) p.trace.loop = r.boolean(t["loop"], "loop");
  }
  if (p.source == "trace" && p.trace.file.empty())
    r.fail(n, "power.source is trace but power.trace.file is not set");
}

std::string directory_of(const std::string& path) {
  const auto slash = path.find_last_of('/');
  return slash == std::string::npos ? "." : path.substr(0, slash);
}

}  // namespace

Config parse_config(const std::string& text, const std::string& origin) {
  Reader r(origin);
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    throw UsageError(located(origin, e.mark) + ": YAML syntax error: " + e.msg);
  }
  Config c;
  c.source_path = origin;
  if (!root.IsMap())
    r.fail(root, "the config must be a mapping of settings (see configs/default.yaml)");
  r.check_keys(
      root,
      {"name", "iterations", "runs", "warmup_iterations", "seed", "learning_rate", "init_scale",
       "workloads", "sizes", "devices", "power", "gpu", "output", "cooldown_s", "max_start_temp_c"},
      "the config");
  if (root["name"]) c.name = r.scalar(root["name"], "name");
  if (root["iterations"])
    c.iterations = static_cast<int>(r.integer(root["iterations"], "iterations", 1, 100000000));
  if (root["runs"]) c.runs = static_cast<int>(r.integer(root["runs"], "runs", 1, 100000));
  if (root["warmup_iterations"])
    c.warmup_iterations =
        static_cast<int>(r.integer(root["warmup_iterations"], "warmup_iterations", 0, 1000000));
  if (root["seed"])
    c.seed = static_cast<uint64_t>(
        r.integer(root["seed"], "seed", 0, std::numeric_limits<int64_t>::max()));
  if (root["learning_rate"])
    c.learning_rate = r.number(root["learning_rate"], "learning_rate", 0, 1e3);
  if (root["init_scale"]) c.init_scale = r.number(root["init_scale"], "init_scale", 1e-12, 1e6);
  if (root["workloads"]) {
    c.workloads = r.string_list(root["workloads"], "workloads");
    for (size_t i = 0; i < c.workloads.size(); ++i) {
      const auto& known = known_workloads();
      if (std::find(known.begin(), known.end(), c.workloads[i]) == known.end())
        r.fail(root["workloads"][i],
               "unknown workload '" + c.workloads[i] + "' (valid: " + join(known) + ")");
    }
    if (c.workloads.empty())
      r.fail(root["workloads"], "'workloads' must name at least one workload");
  }
  if (root["sizes"]) {
    parse_sizes(r, root["sizes"], c);
  } else {
    c.sizes = {{"small", 64, 15000, 100, 150},
               {"medium", 192, 20000, 300, 200},
               {"large", 384, 40000, 600, 400}};
  }
  if (root["devices"]) {
    parse_devices(r, root["devices"], c);
  } else {
    c.devices = {DeviceSpec{"cpu", 0, "all", "auto", 0, "cpu"},
                 DeviceSpec{"gpu", 0, "all", "auto", 0, "gpu"}};
  }
  if (root["power"]) parse_power(r, root["power"], c.power);
  if (const YAML::Node g = root["gpu"]) {
    r.expect_map(g, "gpu");
    r.check_keys(g, {"relu", "sync"}, "gpu");
    if (g["relu"]) c.gpu.relu = r.one_of(g["relu"], "relu", {"kernel", "cudnn"});
    if (g["sync"]) c.gpu.sync = r.one_of(g["sync"], "sync", {"block", "yield", "spin"});
  }
  if (const YAML::Node o = root["output"]) {
    r.expect_map(o, "output");
    r.check_keys(o, {"dir"}, "output");
    if (o["dir"]) c.output_dir = r.scalar(o["dir"], "dir");
  }
  if (root["cooldown_s"]) c.cooldown_s = r.number(root["cooldown_s"], "cooldown_s", 0, 3600);
  if (root["max_start_temp_c"])
    c.max_start_temp_c = r.number(root["max_start_temp_c"], "max_start_temp_c", 0, 150);
  // A relative trace file is relative to the config file, not to the cwd.
  if (!c.power.trace.file.empty() && c.power.trace.file[0] != '/' &&
      origin.find('/') != std::string::npos)
    c.power.trace.file = directory_of(origin) + "/" + c.power.trace.file;
  return c;
}

Config load_config(const std::string& path) {
  std::ifstream in(path);
  if (!in)
    throw UsageError("cannot read config file '" + path +
                     "' (check the path; examples are in configs/ or /etc/edpbench/)");
  std::stringstream ss;
  ss << in.rdbuf();
  return parse_config(ss.str(), path);
}

std::string to_yaml(const Config& c) {
  YAML::Emitter e;
  e.SetDoublePrecision(15);  // 0.3, not 0.29999999999999999
  e << YAML::BeginMap;
  e << YAML::Key << "name" << YAML::Value << c.name;
  e << YAML::Key << "iterations" << YAML::Value << c.iterations;
  e << YAML::Key << "runs" << YAML::Value << c.runs;
  e << YAML::Key << "warmup_iterations" << YAML::Value << c.warmup_iterations;
  e << YAML::Key << "seed" << YAML::Value << c.seed;
  e << YAML::Key << "learning_rate" << YAML::Value << c.learning_rate;
  e << YAML::Key << "init_scale" << YAML::Value << c.init_scale;
  e << YAML::Key << "workloads" << YAML::Value << YAML::Flow << c.workloads;
  e << YAML::Key << "sizes" << YAML::Value << YAML::BeginMap;
  for (const auto& s : c.sizes) {
    e << YAML::Key << s.name << YAML::Value << YAML::Flow << YAML::BeginMap << YAML::Key << "n"
      << YAML::Value << s.n << YAML::Key << "d_in" << YAML::Value << s.d_in << YAML::Key << "h"
      << YAML::Value << s.h << YAML::Key << "d_out" << YAML::Value << s.d_out << YAML::EndMap;
  }
  e << YAML::EndMap;
  e << YAML::Key << "devices" << YAML::Value << YAML::BeginSeq;
  for (const auto& d : c.devices) {
    e << YAML::Flow << YAML::BeginMap << YAML::Key << "kind" << YAML::Value << d.kind;
    if (d.kind == "cpu")
      e << YAML::Key << "threads" << YAML::Value << d.threads << YAML::Key << "cpus" << YAML::Value
        << d.cpus << YAML::Key << "gemm" << YAML::Value << d.gemm;
    if (d.kind == "gpu") e << YAML::Key << "index" << YAML::Value << d.index;
    e << YAML::EndMap;
  }
  e << YAML::EndSeq;
  const PowerConfig& p = c.power;
  e << YAML::Key << "power" << YAML::Value << YAML::BeginMap;
  e << YAML::Key << "source" << YAML::Value << p.source;
  e << YAML::Key << "rate_hz" << YAML::Value << p.rate_hz;
  if (p.total_rails.empty())
    e << YAML::Key << "total_rails" << YAML::Value << "auto";
  else
    e << YAML::Key << "total_rails" << YAML::Value << YAML::Flow << p.total_rails;
  e << YAML::Key << "baseline_s" << YAML::Value << p.baseline_s;
  e << YAML::Key << "baseline_every" << YAML::Value << p.baseline_every;
  if (p.min_run_auto)
    e << YAML::Key << "min_run_s" << YAML::Value << "auto";
  else
    e << YAML::Key << "min_run_s" << YAML::Value << p.min_run_s;
  e << YAML::Key << "sampler_cpu" << YAML::Value << p.sampler_cpu;
  e << YAML::Key << "ina226" << YAML::Value << YAML::Flow << YAML::BeginMap;
  e << YAML::Key << "bus" << YAML::Value << p.ina226.bus << YAML::Key << "address" << YAML::Value
    << p.ina226.address << YAML::Key << "shunt_ohm" << YAML::Value << p.ina226.shunt_ohm
    << YAML::Key << "max_current_a" << YAML::Value << p.ina226.max_current_a << YAML::Key
    << "averages" << YAML::Value << p.ina226.averages << YAML::Key << "conversion_us" << YAML::Value
    << p.ina226.conversion_us << YAML::Key << "poll_ready" << YAML::Value << p.ina226.poll_ready
    << YAML::Key << "force" << YAML::Value << p.ina226.force;
  e << YAML::EndMap;
  e << YAML::Key << "trace" << YAML::Value << YAML::Flow << YAML::BeginMap << YAML::Key << "file"
    << YAML::Value << p.trace.file << YAML::Key << "loop" << YAML::Value << p.trace.loop
    << YAML::EndMap;
  e << YAML::EndMap;
  e << YAML::Key << "gpu" << YAML::Value << YAML::Flow << YAML::BeginMap << YAML::Key << "relu"
    << YAML::Value << c.gpu.relu << YAML::Key << "sync" << YAML::Value << c.gpu.sync
    << YAML::EndMap;
  e << YAML::Key << "cooldown_s" << YAML::Value << c.cooldown_s;
  e << YAML::Key << "max_start_temp_c" << YAML::Value << c.max_start_temp_c;
  e << YAML::Key << "output" << YAML::Value << YAML::Flow << YAML::BeginMap << YAML::Key << "dir"
    << YAML::Value << c.output_dir << YAML::EndMap;
  e << YAML::EndMap;
  return std::string(e.c_str()) + "\n";
}

namespace {
template <class T, class Name>
void keep_only(std::vector<T>& items, const std::vector<std::string>& wanted, Name name_of,
               const std::string& what) {
  if (wanted.empty()) return;
  std::vector<std::string> valid;
  for (const auto& it : items) valid.push_back(name_of(it));
  for (const auto& w : wanted)
    if (std::find(valid.begin(), valid.end(), w) == valid.end())
      throw UsageError("unknown " + what + " '" + w + "' (this config has: " + join(valid) + ")");
  items.erase(std::remove_if(items.begin(), items.end(),
                             [&](const T& it) {
                               return std::find(wanted.begin(), wanted.end(), name_of(it)) ==
                                      wanted.end();
                             }),
              items.end());
}
}  // namespace

void apply_filters(Config& c, const std::vector<std::string>& workloads,
                   const std::vector<std::string>& sizes, const std::vector<std::string>& devices,
                   int runs, int iterations) {
  keep_only(
      c.workloads, workloads, [](const std::string& s) { return s; }, "workload");
  keep_only(
      c.sizes, sizes, [](const SizeSpec& s) { return s.name; }, "size");
  keep_only(
      c.devices, devices, [](const DeviceSpec& d) { return d.label; }, "device");
  if (runs > 0) c.runs = runs;
  if (iterations > 0) c.iterations = iterations;
}

}  // namespace edp::bench
