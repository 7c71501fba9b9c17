// The config keys whose values are structures rather than one value (sizes,
// devices, operating points, `auto`-or-value keys, size-name lists): their
// readers and writers, used by the key table (config_keys.cpp).
#pragma once

#include <yaml-cpp/yaml.h>

#include <string>
#include <utility>
#include <vector>

#include "bench/config/config_key_builders.h"
#include "bench/config/config_reader.h"
#include "bench/config/config_types.h"

namespace edp::bench {

void read_sizes(ConfigReader& r, const YAML::Node& n, Config& c);
void emit_sizes(YAML::Emitter& e, const Config& c);

void read_devices(ConfigReader& r, const YAML::Node& n, Config& c);
void emit_devices(YAML::Emitter& e, const Config& c);

void read_points(ConfigReader& r, const YAML::Node& n, Config& c);
void emit_points(YAML::Emitter& e, const Config& c);

void read_total_rails(ConfigReader& r, const YAML::Node& n, Config& c);
void emit_total_rails(YAML::Emitter& e, const Config& c);

void read_min_run_s(ConfigReader& r, const YAML::Node& n, Config& c);
void emit_min_run_s(YAML::Emitter& e, const Config& c);

// A study's list of size names ("<study>.sizes"): names the config's `sizes` defines.
std::vector<std::string> read_size_names(ConfigReader& r, const YAML::Node& n,
                                         const std::string& key, const Config& c);

// The key of a study section's list of size names (`field` of section S),
// read by read_size_names and written on one line.
template <class S>
ConfigKey size_names_key(const std::string& path, std::string doc,
                         std::vector<std::string> S::*field) {
  return custom_key(
      path, std::move(doc),
      [path, field](ConfigReader& r, const YAML::Node& n, Config& c) {
        c.edit<S>().*field = read_size_names(r, n, path, c);
      },
      [field](YAML::Emitter& e, const Config& c) { e << YAML::Flow << c.section<S>().*field; });
}

}  // namespace edp::bench
