#include "bench/config/config.h"

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <stdexcept>

#include <sys/stat.h>

#include "bench/config/config_keys.h"
#include "bench/config/config_reader.h"
#include "common/errors.h"
#include "common/safe_file.h"

namespace edp::bench {

namespace {

std::string directory_of(const std::string& path) {
  const auto slash = path.find_last_of('/');
  return slash == std::string::npos ? "." : path.substr(0, slash);
}

bool contains(const std::vector<std::string>& v, const std::string& x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

std::string join(const std::vector<std::string>& v, const std::string& sep = ", ") {
  return join_names(v, sep);
}

// Where a second document starts, or line -1 when there is none: the
// parser's events for at most two documents, nothing built.
YAML::Mark second_document(const std::string& text) {
  struct Starts final : YAML::EventHandler {
    std::vector<YAML::Mark> marks;
    void OnDocumentStart(const YAML::Mark& m) override { marks.push_back(m); }
    void OnDocumentEnd() override {}
    void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
    void OnAlias(const YAML::Mark&, YAML::anchor_t) override {}
    void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t,
                  const std::string&) override {}
    void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                         YAML::EmitterStyle::value) override {}
    void OnSequenceEnd() override {}
    void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t,
                    YAML::EmitterStyle::value) override {}
    void OnMapEnd() override {}
  } starts;
  std::istringstream in(text);
  YAML::Parser parser(in);
  for (int i = 0; i < 2 && parser.HandleNextDocument(starts); ++i) {
  }
  if (starts.marks.size() < 2) return YAML::Mark::null_mark();
  return starts.marks[1];
}

// Where `path` was read, or the document's start when it was not given.
std::string place(const Config& c, const ConfigReader& r, const YAML::Node& root,
                  const std::string& path) {
  const auto it = c.where.find(path);
  return it != c.where.end() ? it->second : r.where(root);
}

// Checks that need several keys (or the file system), after every key is read.
void check_whole(const ConfigSchema& s, ConfigReader& r, const YAML::Node& root, Config& c) {
  for (const auto& k : s.keys) {
    if (!k.check) continue;
    const std::string problem = k.check(c);
    if (!problem.empty()) r.error_at(place(c, r, root, k.path), problem);
  }
  if (c.power.source != "trace") return;
  if (c.power.trace.file.empty()) {
    r.error_at(place(c, r, root, "power.source"),
               "power.source is trace but power.trace.file is not set");
    return;
  }
  // Refused here, with the key's place, rather than when the sampler opens it.
  const std::string problem = trace_file_problem(c.power.trace.file);
  if (!problem.empty()) r.error_at(place(c, r, root, "power.trace.file"), problem);
}

// The errors sorted by line and column.
std::vector<std::string> sorted_by_place(std::vector<std::string> errors) {
  auto position = [](const std::string& e) {
    // "FILE:LINE:COL: ..." -> (LINE, COL); the file name may hold colons.
    const auto end = e.find(": ");
    const std::string head = e.substr(0, end);
    const auto c2 = head.rfind(':');
    const auto c1 =
        c2 == std::string::npos || c2 == 0 ? std::string::npos : head.rfind(':', c2 - 1);
    if (c1 == std::string::npos) return std::make_pair(LONG_MAX, 0L);  // last
    return std::make_pair(std::atol(head.c_str() + c1 + 1), std::atol(head.c_str() + c2 + 1));
  };
  std::stable_sort(errors.begin(), errors.end(), [&](const std::string& a, const std::string& b) {
    return position(a) < position(b);
  });
  return errors;
}

// The same, one per line.
std::string in_file_order(std::vector<std::string> errors) {
  return join(sorted_by_place(std::move(errors)), "\n");
}

}  // namespace

std::string trace_file_problem(const std::string& file) {
  // lstat: a link is not followed (the trace is read with O_NOFOLLOW).
  struct stat st {};
  if (::lstat(file.c_str(), &st) != 0)
    return "trace file '" + file + "' cannot be read (" + std::strerror(errno) +
           "); a relative path is relative to the config file's directory";
  if (S_ISLNK(st.st_mode))
    return "trace file '" + file +
           "' is a symbolic link; name the file itself (links are not followed)";
  if (!S_ISREG(st.st_mode))
    return "trace file '" + file + "' is not a regular file (expected a CSV t_s,<rail>_w,...)";
  return "";
}

Config parse_config(const ConfigSchema& s, const std::string& text, const std::string& origin,
                    bool keep_going) {
  ConfigReader r(origin);
  YAML::Node root;
  try {
    // A second document ("---") would be ignored: refuse it. (YAML::LoadAll
    // is not used: yaml-cpp 0.7 loops on some malformed inputs, found by
    // fuzz_config.)
    const YAML::Mark second = second_document(text);
    if (second.line >= 0)
      throw UsageError(located(origin, second) +
                       ": a second YAML document ('---'): a config is one document; merge them "
                       "or remove the separator");
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    throw UsageError(located(origin, e.mark) + ": YAML syntax error: " + e.msg);
  }
  Config c;
  c.source_path = origin;
  c.studies = s.default_studies;
  if (!root.IsMap())
    throw UsageError(located(origin, root.Mark()) +
                     ": the config must be a mapping of settings (see configs/default.yaml)");
  // The defaults of the two keys a config usually gives (replaced when given).
  c.sizes = {{"small", 64, 15000, 100, 150},
             {"medium", 192, 20000, 300, 200},
             {"large", 384, 40000, 600, 400}};
  c.devices = {DeviceSpec{"cpu", 0, "all", "auto", 0, "cpu"},
               DeviceSpec{"gpu", 0, "all", "auto", 0, "gpu"}};
  r.guard([&] { read_config_section(s, r, "", root, c); });
  // A relative trace file is relative to the config file, not to the cwd.
  if (!c.power.trace.file.empty() && c.power.trace.file[0] != '/' &&
      origin.find('/') != std::string::npos)
    c.power.trace.file = directory_of(origin) + "/" + c.power.trace.file;
  check_whole(s, r, root, c);
  if (!r.errors().empty()) {
    if (!keep_going) throw UsageError(in_file_order(r.errors()));
    c.problems = sorted_by_place(r.errors());
  }
  return c;
}

Config load_config(const ConfigSchema& s, const std::string& path, bool keep_going) {
  // Through the one reader of untrusted files: a regular file, or a pipe the
  // shell handed over (`--config <(...)`, /dev/fd/N), read interruptibly; a
  // link, a named FIFO (it blocked the open), a device such as /dev/zero or a
  // directory is refused, and no more than the config cap is read.
  const auto text = read_untrusted_file_if_present(path, file_kind::config);
  if (!text)
    throw UsageError("cannot read config file '" + path +
                     "' (check the path; examples are in configs/ or /etc/edpbench/)");
  return parse_config(s, *text, path, keep_going);
}

std::string to_yaml(const ConfigSchema& s, const Config& c) {
  YAML::Emitter e;
  e.SetDoublePrecision(15);  // 0.3, not 0.29999999999999999
  emit_config_section(s, e, "", c);
  return std::string(e.c_str()) + "\n";
}

namespace {
void set_config_node(const ConfigSchema& s, Config& c, const std::string& path,
                     const YAML::Node& value, const std::string& option) {
  const ConfigKey* key = s.find(path);
  if (!key) throw std::logic_error("set_config_value: no config key " + path);
  ConfigReader r(option, false);
  r.guard([&] { read_config_key(s, r, *key, value, c); });
  if (!r.errors().empty()) throw UsageError(join(r.errors(), "\n"));
}
}  // namespace

void set_config_value(const ConfigSchema& s, Config& c, const std::string& path,
                      const std::string& value, const std::string& option) {
  set_config_node(s, c, path, YAML::Node(value), option + " " + value);
}

void set_config_list(const ConfigSchema& s, Config& c, const std::string& path,
                     const std::vector<std::string>& values, const std::string& option) {
  YAML::Node list(YAML::NodeType::Sequence);
  for (const auto& v : values) list.push_back(YAML::Node(v));
  set_config_node(s, c, path, list, option + " " + join(values, ","));
}

std::vector<std::string> config_value_problems(
    const ConfigSchema& s, const Config& c, const std::vector<std::string>& paths,
    const std::function<std::string(const std::string& path)>& option) {
  std::vector<std::string> problems;
  for (const auto& path : paths) {
    const ConfigKey* key = s.find(path);
    if (!key) throw std::logic_error("config_value_problems: no config key " + path);
    // The value as to_yaml writes it, read back as a config file's value.
    YAML::Emitter e;
    e.SetDoublePrecision(15);
    emit_config_value(s, e, *key, c);
    const YAML::Node value = YAML::Load(e.c_str());
    Config scratch = c;
    // Named as a user types it: nan and inf, not YAML's .nan and .inf.
    std::string typed = e.c_str();
    if (typed == ".nan" || typed == ".inf" || typed == "-.inf")
      typed = typed == "-.inf" ? "-inf" : typed.substr(1);
    ConfigReader r(option(path) + " " + typed, false);
    r.guard([&] { read_config_key(s, r, *key, value, scratch); });
    for (const auto& error : r.errors()) problems.push_back(error);
  }
  return problems;
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

void apply_filters(const ConfigSchema& s, Config& c, const std::vector<std::string>& workloads,
                   const std::vector<std::string>& sizes, const std::vector<std::string>& devices,
                   int runs, int iterations, const std::vector<std::string>& studies) {
  for (const auto& st : studies)
    if (!contains(s.studies, st))
      throw UsageError("unknown study '" + st + "' (valid: " + join(s.studies) + ")");
  if (!studies.empty()) c.studies = studies;
  keep_only(
      c.workloads, workloads, [](const std::string& s) { return s; }, "workload");
  keep_only(
      c.sizes, sizes, [](const SizeSpec& s) { return s.name; }, "size");
  keep_only(
      c.devices, devices, [](const DeviceSpec& d) { return d.label; }, "device");
  // The same ranges as the config's keys (one validation path).
  if (runs > 0) set_config_value(s, c, "runs", std::to_string(runs), "--runs");
  if (iterations > 0)
    set_config_value(s, c, "iterations", std::to_string(iterations), "--iterations");
}

}  // namespace edp::bench
