#include "bench/config.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <fstream>
#include <limits>
#include <regex>
#include <set>
#include <sstream>

#include "common/errors.h"

namespace edp::bench {

const std::vector<std::string>& known_studies() {
  static const std::vector<std::string> names{"mlp", "batch", "stages", "ops"};
  return names;
}

int64_t parse_bytes(const std::string& text) {
  // Binary units, as memory is counted: 1KB = 1KiB = 1024 bytes.
  size_t i = 0;
  while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) ++i;
  std::string unit = text.substr(i);
  for (auto& ch : unit) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  static const std::vector<std::pair<std::string, int64_t>> kUnits{
      {"B", 1},           {"", 1},           {"KB", 1LL << 10},
      {"KIB", 1LL << 10}, {"MB", 1LL << 20}, {"MIB", 1LL << 20},
      {"GB", 1LL << 30},  {"GIB", 1LL << 30}};
  int64_t scale = 0;
  for (const auto& [name, value] : kUnits)
    if (unit == name) scale = value;
  if (i == 0 || i > 12 || scale == 0)
    throw UsageError("'" + text +
                     "' is not a size: write a whole number and a unit, B, KB, MB or GB "
                     "(binary: 1MB = 1048576 bytes), e.g. 16MB");
  const int64_t value = std::stoll(text.substr(0, i));
  if (value <= 0 || value > (int64_t{1} << 40) / scale)
    throw UsageError("'" + text + "' is out of range (1 byte to 1024 GB)");
  return value * scale;
}

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

bool contains(const std::vector<std::string>& v, const std::string& x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

// A list of size names that the config's `sizes` defines.
std::vector<std::string> size_names(const Reader& r, const YAML::Node& n, const std::string& key,
                                    const Config& c) {
  std::vector<std::string> names = r.string_list(n, key);
  std::vector<std::string> valid;
  for (const auto& s : c.sizes) valid.push_back(s.name);
  for (size_t i = 0; i < names.size(); ++i)
    if (!contains(valid, names[i]))
      r.fail(n[i], "unknown size '" + names[i] + "' in " + key + " (sizes: " + join(valid) + ")");
  if (names.empty()) r.fail(n, "'" + key + "' must name at least one size");
  return names;
}

void parse_batch(const Reader& r, const YAML::Node& n, Config& c) {
  r.expect_map(n, "batch");
  r.check_keys(n, {"sizes", "n"}, "batch");
  if (n["sizes"]) c.batch.sizes = size_names(r, n["sizes"], "batch.sizes", c);
  if (const YAML::Node list = n["n"]) {
    if (!list.IsSequence()) r.fail(list, "'batch.n' must be a list of batch sizes");
    c.batch.n.clear();
    for (const auto& item : list) c.batch.n.push_back(r.integer(item, "batch.n", 1, 1 << 20));
    if (c.batch.n.empty()) r.fail(list, "'batch.n' must list at least one batch size");
  }
}

void parse_ops(const Reader& r, const YAML::Node& n, OpsConfig& o) {
  r.expect_map(n, "ops");
  r.check_keys(n,
               {"ops", "bytes", "gemm_n", "cold", "steps", "runs", "max_runs", "max_rel_ci",
                "time_limit_s", "min_run_s"},
               "ops");
  static const std::vector<std::string> kOps{"copy",    "add",  "mul",  "scalar",
                                             "sigmoid", "tanh", "gemm", "fma_peak"};
  if (n["ops"]) {
    o.ops = r.string_list(n["ops"], "ops.ops");
    for (size_t i = 0; i < o.ops.size(); ++i)
      if (!contains(kOps, o.ops[i]))
        r.fail(n["ops"][i], "unknown op '" + o.ops[i] + "' (valid: " + join(kOps) + ")");
  }
  if (n["bytes"]) {
    o.bytes = r.string_list(n["bytes"], "ops.bytes");
    for (size_t i = 0; i < o.bytes.size(); ++i) {
      try {
        parse_bytes(o.bytes[i]);
      } catch (const UsageError& e) {
        r.fail(n["bytes"][i], e.what());
      }
    }
  }
  if (const YAML::Node list = n["gemm_n"]) {
    if (!list.IsSequence()) r.fail(list, "'ops.gemm_n' must be a list of matrix orders");
    o.gemm_n.clear();
    for (const auto& item : list) o.gemm_n.push_back(r.integer(item, "ops.gemm_n", 1, 65536));
  }
  if (n["cold"]) o.cold = r.boolean(n["cold"], "ops.cold");
  if (n["steps"]) o.steps = static_cast<int>(r.integer(n["steps"], "ops.steps", 1, 100000000));
  if (n["runs"]) o.runs = static_cast<int>(r.integer(n["runs"], "ops.runs", 1, 100000));
  if (n["max_runs"])
    o.max_runs = static_cast<int>(r.integer(n["max_runs"], "ops.max_runs", 1, 1000000));
  if (n["max_rel_ci"]) o.max_rel_ci = r.number(n["max_rel_ci"], "ops.max_rel_ci", 0, 1);
  if (n["time_limit_s"]) o.time_limit_s = r.number(n["time_limit_s"], "ops.time_limit_s", 0, 86400);
  if (n["min_run_s"]) o.min_run_s = r.number(n["min_run_s"], "ops.min_run_s", 0, 86400);
  if (o.max_runs < o.runs) r.fail(n, "'ops.max_runs' must be at least 'ops.runs'");
}

// DESIGN §10: a named nvpmodel mode or explicit limits (or both). Whether
// the board offers them is checked against it by platform::validate_points
// when the sweep starts.
void parse_points(const Reader& r, const YAML::Node& n, Config& c) {
  if (!n.IsSequence()) r.fail(n, "'operating_points' must be a list of {name: ..., ...} entries");
  for (const auto& item : n) {
    r.expect_map(item, "an operating point");
    r.check_keys(item,
                 {"name", "nvpmodel", "cpu_max_khz", "cpu_min_khz", "gpu_max_hz", "gpu_min_hz",
                  "emc_max_hz", "cpus_online", "cpu_governor"},
                 "an operating point");
    if (!item["name"]) r.fail(item, "an operating point needs a 'name'");
    platform::OperatingPoint p;
    p.name = r.scalar(item["name"], "name");
    for (const auto& other : c.operating_points)
      if (other.name == p.name)
        r.fail(item["name"], "operating point '" + p.name + "' is named twice");
    auto hz = [&](const char* key, long* out) {
      if (item[key]) *out = static_cast<long>(r.integer(item[key], key, 0, 100000000000LL));
    };
    if (item["nvpmodel"])
      p.nvpmodel = static_cast<int>(r.integer(item["nvpmodel"], "nvpmodel", 0, 99));
    hz("cpu_max_khz", &p.cpu_max_khz);
    hz("cpu_min_khz", &p.cpu_min_khz);
    hz("gpu_max_hz", &p.gpu_max_hz);
    hz("gpu_min_hz", &p.gpu_min_hz);
    hz("emc_max_hz", &p.emc_max_hz);
    if (item["cpus_online"]) p.cpus_online = r.scalar(item["cpus_online"], "cpus_online");
    if (item["cpu_governor"]) p.cpu_governor = r.scalar(item["cpu_governor"], "cpu_governor");
    c.operating_points.push_back(std::move(p));
  }
}

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
  r.check_keys(root,
               {"name",
                "iterations",
                "runs",
                "warmup_iterations",
                "seed",
                "learning_rate",
                "init_scale",
                "workloads",
                "sizes",
                "devices",
                "power",
                "gpu",
                "output",
                "cooldown_s",
                "max_start_temp_c",
                "studies",
                "batch",
                "stages",
                "ops",
                "operating_points"},
               "the config");
  if (root["studies"]) {
    c.studies = r.string_list(root["studies"], "studies");
    for (size_t i = 0; i < c.studies.size(); ++i)
      if (!contains(known_studies(), c.studies[i]))
        r.fail(root["studies"][i],
               "unknown study '" + c.studies[i] + "' (valid: " + join(known_studies()) + ")");
    if (c.studies.empty()) r.fail(root["studies"], "'studies' must name at least one study");
  }
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
  if (root["batch"]) parse_batch(r, root["batch"], c);
  if (root["stages"]) {
    r.expect_map(root["stages"], "stages");
    r.check_keys(root["stages"], {"sizes"}, "stages");
    if (root["stages"]["sizes"])
      c.stages.sizes = size_names(r, root["stages"]["sizes"], "stages.sizes", c);
  }
  if (root["ops"]) parse_ops(r, root["ops"], c.ops);
  if (root["operating_points"]) parse_points(r, root["operating_points"], c);
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
  e << YAML::Key << "studies" << YAML::Value << YAML::Flow << c.studies;
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
  auto has = [&](const char* study) { return contains(c.studies, study); };
  if (has("batch"))
    e << YAML::Key << "batch" << YAML::Value << YAML::Flow << YAML::BeginMap << YAML::Key << "sizes"
      << YAML::Value << c.batch.sizes << YAML::Key << "n" << YAML::Value << c.batch.n
      << YAML::EndMap;
  if (has("stages"))
    e << YAML::Key << "stages" << YAML::Value << YAML::Flow << YAML::BeginMap << YAML::Key
      << "sizes" << YAML::Value << c.stages.sizes << YAML::EndMap;
  if (has("ops")) {
    const OpsConfig& o = c.ops;
    e << YAML::Key << "ops" << YAML::Value << YAML::Flow << YAML::BeginMap;
    e << YAML::Key << "ops" << YAML::Value << o.ops << YAML::Key << "bytes" << YAML::Value
      << o.bytes << YAML::Key << "gemm_n" << YAML::Value << o.gemm_n << YAML::Key << "cold"
      << YAML::Value << o.cold << YAML::Key << "steps" << YAML::Value << o.steps << YAML::Key
      << "runs" << YAML::Value << o.runs << YAML::Key << "max_runs" << YAML::Value << o.max_runs
      << YAML::Key << "max_rel_ci" << YAML::Value << o.max_rel_ci << YAML::Key << "time_limit_s"
      << YAML::Value << o.time_limit_s << YAML::Key << "min_run_s" << YAML::Value << o.min_run_s;
    e << YAML::EndMap;
  }
  if (!c.operating_points.empty()) {
    e << YAML::Key << "operating_points" << YAML::Value << YAML::BeginSeq;
    for (const auto& p : c.operating_points) {
      e << YAML::Flow << YAML::BeginMap << YAML::Key << "name" << YAML::Value << p.name;
      auto num = [&](const char* key, long v) {
        if (v >= 0) e << YAML::Key << key << YAML::Value << v;
      };
      num("nvpmodel", p.nvpmodel);
      num("cpu_max_khz", p.cpu_max_khz);
      num("cpu_min_khz", p.cpu_min_khz);
      num("gpu_max_hz", p.gpu_max_hz);
      num("gpu_min_hz", p.gpu_min_hz);
      num("emc_max_hz", p.emc_max_hz);
      if (!p.cpus_online.empty()) e << YAML::Key << "cpus_online" << YAML::Value << p.cpus_online;
      if (!p.cpu_governor.empty())
        e << YAML::Key << "cpu_governor" << YAML::Value << p.cpu_governor;
      e << YAML::EndMap;
    }
    e << YAML::EndSeq;
  }
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
                   int runs, int iterations, const std::vector<std::string>& studies) {
  for (const auto& st : studies)
    if (!contains(known_studies(), st))
      throw UsageError("unknown study '" + st + "' (valid: " + join(known_studies()) + ")");
  if (!studies.empty()) c.studies = studies;
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
