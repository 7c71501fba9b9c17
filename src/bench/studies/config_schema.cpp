// The config's whole key table, from the registry (studies.def); see
// config_schema.h.
#include "bench/studies/config_schema.h"

namespace edp::bench {

// Each registered study's section (defined in its own folder).
#define EDP_STUDY(name, maker)
#define EDP_STUDY_WITH_CONFIG(name, maker, add_keys) void add_keys(KeyTable&);
#include "bench/studies/studies.def"

std::vector<StudyKeys> registered_study_keys() {
  return {
#define EDP_STUDY(name, maker) {#name, nullptr},
#define EDP_STUDY_WITH_CONFIG(name, maker, add_keys) {#name, add_keys},
#include "bench/studies/studies.def"
  };
}

const ConfigSchema& config_schema() {
  static const ConfigSchema schema = make_config_schema(registered_study_keys(), {"mlp"});
  return schema;
}

const std::vector<std::string>& known_studies() { return config_schema().studies; }

const ConfigKey* find_config_key(const std::string& path) { return config_schema().find(path); }

Config load_config(const std::string& path, bool keep_going) {
  return load_config(config_schema(), path, keep_going);
}

Config parse_config(const std::string& yaml_text, const std::string& origin, bool keep_going) {
  return parse_config(config_schema(), yaml_text, origin, keep_going);
}

std::string to_yaml(const Config& c) { return to_yaml(config_schema(), c); }

void set_config_value(Config& c, const std::string& path, const std::string& value,
                      const std::string& option) {
  set_config_value(config_schema(), c, path, value, option);
}

void set_config_list(Config& c, const std::string& path, const std::vector<std::string>& values,
                     const std::string& option) {
  set_config_list(config_schema(), c, path, values, option);
}

std::vector<std::string> config_value_problems(
    const Config& c, const std::vector<std::string>& paths,
    const std::function<std::string(const std::string& path)>& option) {
  return config_value_problems(config_schema(), c, paths, option);
}

void apply_filters(Config& c, const std::vector<std::string>& workloads,
                   const std::vector<std::string>& sizes, const std::vector<std::string>& devices,
                   int runs, int iterations, const std::vector<std::string>& studies) {
  apply_filters(config_schema(), c, workloads, sizes, devices, runs, iterations, studies);
}

}  // namespace edp::bench
