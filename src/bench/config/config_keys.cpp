// The table of config keys and the readers and writer that walk it (see
// config_keys.h).
#include "bench/config/config_keys.h"

#include <algorithm>
#include <limits>
#include <stdexcept>

#include "bench/config/config_compound.h"
#include "bench/config/config_key_builders.h"
#include "common/text.h"

namespace edp::bench {
namespace {

std::vector<std::string> texts_of(std::initializer_list<int> values) {
  std::vector<std::string> out;
  for (int v : values) out.push_back(std::to_string(v));
  return out;
}

const int64_t kInt64Max = std::numeric_limits<int64_t>::max();

KeyTable build_table(const std::vector<StudyKeys>& studies) {
  std::vector<std::string> names;
  for (const StudyKeys& s : studies) names.push_back(s.name);
  KeyTable t;
  ConfigKey name = text_key(
      "name", {}, "A name for the sweep (context.json, report)",
      [](auto& c) -> auto& { return c.name; });
  name.check = [](const Config& c) {  // a label: no control characters
    const std::string why = label_problem(c.name);
    return why.empty() ? why : "'name' " + why;
  };
  t.push_back(std::move(name));
  t.push_back(integer_key(
      "iterations", 1, 100000000, "Training iterations per run",
      [](auto& c) -> auto& { return c.iterations; }));
  t.push_back(integer_key(
      "runs", 1, 100000, "Measured runs per configuration",
      [](auto& c) -> auto& { return c.runs; }));
  t.push_back(integer_key(
      "warmup_iterations", 0, 1000000, "Unmeasured iterations first",
      [](auto& c) -> auto& { return c.warmup_iterations; }));
  t.push_back(integer_key(
      "seed", 0, kInt64Max, "Seed of the data and weights",
      [](auto& c) -> auto& { return c.seed; }));
  t.push_back(number_key(
      "learning_rate", 0, 1e3, "SGD learning rate",
      [](auto& c) -> auto& { return c.learning_rate; }));
  t.push_back(number_key(
      "init_scale", 1e-12, 1e6, "Scale of the initial weights",
      [](auto& c) -> auto& { return c.init_scale; }));
  t.push_back(text_list_key(
      "studies", names, "study", "The studies to run (DESIGN §9)",
      [](auto& c) -> auto& { return c.studies; }));
  t.push_back(text_list_key(
      "workloads", known_workloads(), "workload", "The MLP programs",
      [](auto& c) -> auto& { return c.workloads; }));
  t.push_back(
      custom_key("sizes", "Named layer shapes {n, d_in, h, d_out}", read_sizes, emit_sizes));
  t.push_back(
      custom_key("devices", "Devices {kind: cpu|gpu|reference, ...}", read_devices, emit_devices));
  t.push_back(section_key("power", false, "The power source and energy protocol (DESIGN §4)"));
  t.push_back(text_key(
      "power.source",
      {"auto", "jetson", "ina226", "hwmon", "rapl", "nvml", "trace", "simulated", "none"},
      "Where power is read", [](auto& c) -> auto& { return c.power.source; }));
  t.push_back(number_key(
      "power.rate_hz", 1, 10000, "Sampler rate", [](auto& c) -> auto& { return c.power.rate_hz; }));
  t.push_back(custom_key("power.total_rails", "auto, or the rails whose sum is energy",
                         read_total_rails, emit_total_rails));
  t.push_back(number_key(
      "power.baseline_s", 0, 3600, "Idle-power measurement length",
      [](auto& c) -> auto& { return c.power.baseline_s; }));
  t.push_back(integer_key(
      "power.baseline_every", 0, 1000000, "Re-measure idle power every N configurations (0 = once)",
      [](auto& c) -> auto& { return c.power.baseline_every; }));
  t.push_back(custom_key("power.min_run_s", "Shortest energy window (s), or auto", read_min_run_s,
                         emit_min_run_s));
  t.push_back(integer_key(
      "power.sampler_cpu", -1, 4095, "Pin the sampler thread (-1: not pinned)",
      [](auto& c) -> auto& { return c.power.sampler_cpu; }));
  // Written only when not the default, so that a config.yaml of a sweep
  // started before the key existed still matches on --resume.
  ConfigKey settle = number_key(
      "power.settle_s", 0, 600,
      "Wait at most this long for an averaging sensor's update interval before the first window",
      [](auto& c) -> auto& { return c.power.settle_s; });
  settle.emitted = [](const Config& c) { return c.power.settle_s != PowerConfig().settle_s; };
  t.push_back(settle);
  // The timeline keys are written only when not the default, so that a
  // config.yaml of a sweep started before they existed still matches.
  ConfigKey timeline = boolean_key(
      "power.timeline", "Write samples.csv: every run's power over time (DESIGN §5)",
      [](auto& c) -> auto& { return c.power.timeline; });
  timeline.emitted = [](const Config& c) { return c.power.timeline; };
  t.push_back(timeline);
  ConfigKey timeline_hz = number_key(
      "power.timeline_hz", 1, 1000, "Points a second kept of each run's power in samples.csv",
      [](auto& c) -> auto& { return c.power.timeline_hz; });
  timeline_hz.emitted = [](const Config& c) {
    return c.power.timeline_hz != PowerConfig().timeline_hz;
  };
  t.push_back(timeline_hz);
  ConfigKey timeline_rows = integer_key(
      "power.timeline_max_rows", 1000, 10000000, "Most rows samples.csv holds for a sweep",
      [](auto& c) -> auto& { return c.power.timeline_max_rows; });
  timeline_rows.emitted = [](const Config& c) {
    return c.power.timeline_max_rows != PowerConfig().timeline_max_rows;
  };
  t.push_back(timeline_rows);
  t.push_back(section_key("power.ina226", true, "An INA226 on an I2C bus"));
  t.push_back(text_key(
      "power.ina226.bus", {}, "The I2C bus (/dev/i2c-N or N)",
      [](auto& c) -> auto& { return c.power.ina226.bus; }));
  // INA226 addresses are 0x40-0x4F (datasheet SBOS547, table 2: A1/A0 pins).
  ConfigKey address = integer_key(
      "power.ina226.address", 0x40, 0x4f, "7-bit I2C address",
      [](auto& c) -> auto& { return c.power.ina226.address; });
  address.hex = true;
  t.push_back(address);
  t.push_back(number_key(
      "power.ina226.shunt_ohm", 1e-5, 100, "Shunt resistance",
      [](auto& c) -> auto& { return c.power.ina226.shunt_ohm; }));
  t.push_back(number_key(
      "power.ina226.max_current_a", 1e-4, 100, "Largest expected current",
      [](auto& c) -> auto& { return c.power.ina226.max_current_a; }));
  // AVG and VBUSCT/VSHCT settings of the configuration register (SBOS547 §7.6.1).
  ConfigKey averages = integer_key(
      "power.ina226.averages", 1, 1024, "Samples averaged",
      [](auto& c) -> auto& { return c.power.ina226.averages; });
  averages.choices = texts_of({1, 4, 16, 64, 128, 256, 512, 1024});
  t.push_back(averages);
  ConfigKey conversion = integer_key(
      "power.ina226.conversion_us", 140, 8244, "Conversion time",
      [](auto& c) -> auto& { return c.power.ina226.conversion_us; });
  conversion.choices = texts_of({140, 204, 332, 588, 1100, 2116, 4156, 8244});
  t.push_back(conversion);
  t.push_back(boolean_key(
      "power.ina226.poll_ready", "Wait for the conversion-ready flag",
      [](auto& c) -> auto& { return c.power.ina226.poll_ready; }));
  t.push_back(boolean_key(
      "power.ina226.force", "Use the device even if a driver holds it",
      [](auto& c) -> auto& { return c.power.ina226.force; }));
  t.push_back(section_key("power.trace", true, "Replay a power trace (power.source: trace)"));
  t.push_back(text_key(
      "power.trace.file", {}, "t_s,<rail>_w,... CSV, relative to the config",
      [](auto& c) -> auto& { return c.power.trace.file; }));
  t.push_back(boolean_key(
      "power.trace.loop", "Start over at the end",
      [](auto& c) -> auto& { return c.power.trace.loop; }));
  // The simulated source (power/simulated.h, a test source): written only
  // when it is the source, so every other config's config.yaml is unchanged.
  t.push_back(section_key("power.simulated", true,
                          "A test source whose power follows this process's CPU time",
                          [](const Config& c) { return c.power.source == "simulated"; }));
  t.push_back(number_key(
      "power.simulated.idle_w", 0, 1e4, "Idle power, awake",
      [](auto& c) -> auto& { return c.power.simulated.idle_w; }));
  t.push_back(number_key(
      "power.simulated.cpu_w", 0, 1e4, "Power per CPU busy with this process's work",
      [](auto& c) -> auto& { return c.power.simulated.cpu_w; }));
  t.push_back(number_key(
      "power.simulated.sleep_after_s", 0, 3600, "Idle this long, it sleeps (0: never)",
      [](auto& c) -> auto& { return c.power.simulated.sleep_after_s; }));
  t.push_back(number_key(
      "power.simulated.sleep_w", 0, 1e4, "Power asleep",
      [](auto& c) -> auto& { return c.power.simulated.sleep_w; }));
  t.push_back(number_key(
      "power.simulated.wake_j", 0, 1e4, "Energy of waking from a sleep",
      [](auto& c) -> auto& { return c.power.simulated.wake_j; }));
  t.push_back(number_key(
      "power.simulated.busy_cpu_s", 1e-6, 1, "CPU time per read that counts as work",
      [](auto& c) -> auto& { return c.power.simulated.busy_cpu_s; }));
  t.push_back(section_key("gpu", true, "GPU settings"));
  t.push_back(text_key(
      "gpu.relu", {"kernel", "cudnn"}, "The ReLU of custom_relu",
      [](auto& c) -> auto& { return c.gpu.relu; }));
  t.push_back(text_key(
      "gpu.sync", {"block", "yield", "spin"}, "How the host waits for the GPU",
      [](auto& c) -> auto& { return c.gpu.sync; }));
  for (const StudyKeys& s : studies)
    if (s.add_keys) s.add_keys(t);
  t.push_back(custom_key("operating_points", "Clock settings every item runs at (DESIGN §10)",
                         read_points, emit_points,
                         [](const Config& c) { return !c.operating_points.empty(); }));
  t.push_back(number_key(
      "cooldown_s", 0, 3600, "Pause between runs", [](auto& c) -> auto& { return c.cooldown_s; }));
  t.push_back(number_key(
      "max_start_temp_c", 0, 150, "Wait until every zone is below (0: off)",
      [](auto& c) -> auto& { return c.max_start_temp_c; }));
  t.push_back(section_key("output", true, "Where results go"));
  t.push_back(text_key(
      "output.dir", {}, "The output directory (run --out overrides)",
      [](auto& c) -> auto& { return c.output_dir; }));
  return t;
}

void emit_value(const ConfigSchema& s, YAML::Emitter& e, const ConfigKey& k, const Config& c) {
  switch (k.type) {
    case KeyType::section:
      if (k.flow) e << YAML::Flow;
      emit_config_section(s, e, k.path, c);
      return;
    case KeyType::custom:
      k.emit(e, c);
      return;
    default:
      break;
  }
  const KeyValue v = k.get(c);
  switch (k.type) {
    case KeyType::integer:
      e << v.integer;
      break;
    case KeyType::number:
      e << v.number;
      break;
    case KeyType::boolean:
      e << v.boolean;
      break;
    case KeyType::text_list:
      e << YAML::Flow << v.texts;
      break;
    case KeyType::integer_list:
      e << YAML::Flow << v.integers;
      break;
    default:
      e << v.text;
  }
}

bool in(const std::vector<std::string>& v, const std::string& x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

}  // namespace

const ConfigKey* ConfigSchema::find(const std::string& path) const {
  for (const auto& k : keys)
    if (k.path == path) return &k;
  return nullptr;
}

ConfigSchema make_config_schema(const std::vector<StudyKeys>& studies,
                                std::vector<std::string> default_studies) {
  ConfigSchema s;
  s.keys = build_table(studies);
  for (const StudyKeys& study : studies) s.studies.push_back(study.name);
  s.default_studies = std::move(default_studies);
  return s;
}

const ConfigSchema& core_config_schema() {
  static const ConfigSchema schema = make_config_schema({}, {});
  return schema;
}

void read_config_key(const ConfigSchema& s, ConfigReader& r, const ConfigKey& k,
                     const YAML::Node& node, Config& c) {
  c.where[k.path] = r.where(node);
  const std::string label = k.label();
  KeyValue v;
  switch (k.type) {
    case KeyType::section:
      read_config_section(s, r, k.path, node, c);
      return;
    case KeyType::custom:
      k.parse(r, node, c);
      return;
    case KeyType::integer:
      v.integer = r.integer(node, label, k.min_integer, k.max_integer, k.hex);
      if (!k.choices.empty() && !in(k.choices, std::to_string(v.integer)))
        r.fail(node, "'" + label + "' must be one of " + join_names(k.choices));
      break;
    case KeyType::number:
      v.number = r.number(node, label, k.lo, k.hi);
      break;
    case KeyType::boolean:
      v.boolean = r.boolean(node, label);
      break;
    case KeyType::text:
      v.text = r.scalar(node, label);
      break;
    case KeyType::choice:
      v.text = r.one_of(node, label, k.choices);
      break;
    case KeyType::text_list:
      v.texts = r.string_list(node, label);
      if (!k.choices.empty()) {
        for (const YAML::Node& item : node)
          if (item.IsScalar() && !in(k.choices, item.Scalar()))
            r.error(item, "unknown " + k.item_noun + " '" + item.Scalar() +
                              "' (valid: " + join_names(k.choices) + ")");
        // Only known names are kept: plan and run go on to this machine's
        // checks with the rest of a config that has errors (one pass).
        const size_t given = v.texts.size();
        v.texts.erase(std::remove_if(v.texts.begin(), v.texts.end(),
                                     [&](const std::string& t) { return !in(k.choices, t); }),
                      v.texts.end());
        if (v.texts.empty() && given > 0) return;  // the default stays
      }
      if (node.size() == 0 && !k.allow_empty)
        r.fail(node, "'" + label + "' must name at least one " + k.item_noun);
      break;
    case KeyType::integer_list:
      v.integers = r.integer_list(node, label, k.min_integer, k.max_integer);
      if (node.size() == 0 && !k.allow_empty)
        r.fail(node, "'" + label + "' must list at least one value");
      break;
  }
  k.set(c, v);
}

void read_config_section(const ConfigSchema& s, ConfigReader& r, const std::string& section,
                         const YAML::Node& node, Config& c) {
  const std::string what = section.empty() ? "the config" : section;
  r.expect_map(node, what);
  std::vector<const ConfigKey*> children;
  std::vector<std::string> names;
  for (const auto& k : s.keys)
    if (k.section() == section) {
      children.push_back(&k);
      names.push_back(k.name());
    }
  r.check_keys(node, names, what);
  for (const ConfigKey* k : children) {
    const YAML::Node value = node[k->name()];
    if (value) r.guard([&] { read_config_key(s, r, *k, value, c); });
  }
}

void emit_config_value(const ConfigSchema& s, YAML::Emitter& e, const ConfigKey& k,
                       const Config& c) {
  emit_value(s, e, k, c);
}

void emit_config_section(const ConfigSchema& s, YAML::Emitter& e, const std::string& section,
                         const Config& c) {
  e << YAML::BeginMap;
  for (const auto& k : s.keys) {
    if (k.section() != section || (k.emitted && !k.emitted(c))) continue;
    e << YAML::Key << k.name() << YAML::Value;
    emit_value(s, e, k, c);
  }
  e << YAML::EndMap;
}

}  // namespace edp::bench
