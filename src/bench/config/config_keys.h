// The config's keys as one table (DESIGN §7; one key is a ConfigKey,
// config_key.h). Parsing (parse_config), emitting (to_yaml, context.json's
// config_yaml), validation and the CLI overrides (set_config_value) all walk
// this table, so a key is written once. Defaults are Config's member
// initialisers (config_types.h). A study's section (batch, stages, ops,
// deploy) is entered by the study's own <study>_config.cpp, through the
// registry (config_studies.cpp), into this same table.
#pragma once

#include <yaml-cpp/yaml.h>

#include <string>
#include <vector>

#include "bench/config/config_key.h"
#include "bench/config/config_reader.h"
#include "bench/config/config_types.h"

namespace edp::bench {

// Every key, sections before their keys, in the order to_yaml writes them.
const KeyTable& config_keys();
const ConfigKey* find_config_key(const std::string& path);

// Reads `node` as key `k` into `c` (errors go to `r`); records where it was.
void read_config_key(ConfigReader& r, const ConfigKey& k, const YAML::Node& node, Config& c);
// Reads the keys of `section` present in `node` (unknown and repeated keys
// are errors).
void read_config_section(ConfigReader& r, const std::string& section, const YAML::Node& node,
                         Config& c);
void emit_config_section(YAML::Emitter& e, const std::string& section, const Config& c);
// Writes the value `c` holds for key `k`, as to_yaml writes it.
void emit_config_value(YAML::Emitter& e, const ConfigKey& k, const Config& c);

// The studies' sections (each study's own keys, from its <study>_config.cpp),
// in the order of the study registry (config_studies.cpp).
void add_study_config_keys(KeyTable& t);

}  // namespace edp::bench
