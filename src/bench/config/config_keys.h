// The config's keys as one table (DESIGN §7; one key is a ConfigKey,
// config_key.h). Parsing (parse_config), emitting (to_yaml, context.json's
// config_yaml), validation and the CLI overrides (set_config_value) all walk
// this table, so a key is written once. Defaults are Config's member
// initialisers (config_types.h) and each study section's own.
//
// The table is a ConfigSchema: the core keys, defined here, with each
// study's section entered by the study itself. This folder knows no study:
// whoever knows them (the study registry, src/bench/studies/config_schema.h)
// hands their sections to make_config_schema. The engine, which reads only
// the core keys (the power options), uses core_config_schema().
#pragma once

#include <yaml-cpp/yaml.h>

#include <string>
#include <vector>

#include "bench/config/config_key.h"
#include "bench/config/config_reader.h"
#include "bench/config/config_types.h"

namespace edp::bench {

// One study as the key table sees it: the name `studies:` accepts and the
// function that enters its section (add_study_section), null for a study
// that reads the shared keys only.
struct StudyKeys {
  std::string name;
  void (*add_keys)(KeyTable&) = nullptr;
};

// Every key a config may hold and the studies it may name.
struct ConfigSchema {
  KeyTable keys;                     // sections before their keys, in the order to_yaml writes them
  std::vector<std::string> studies;  // what `studies:` accepts, in order
  std::vector<std::string> default_studies;              // `studies:` when a config gives none
  const ConfigKey* find(const std::string& path) const;  // null: no such key
};

// The core keys with the studies' sections between the `gpu` section and
// `operating_points` (where to_yaml has always written them), in the order
// given; `studies:` accepts their names.
ConfigSchema make_config_schema(const std::vector<StudyKeys>& studies,
                                std::vector<std::string> default_studies);
// The core keys alone: no study section, and `studies:` names no study.
const ConfigSchema& core_config_schema();

// Reads `node` as key `k` into `c` (errors go to `r`); records where it was.
void read_config_key(const ConfigSchema& s, ConfigReader& r, const ConfigKey& k,
                     const YAML::Node& node, Config& c);
// Reads the keys of `section` present in `node` (unknown and repeated keys
// are errors).
void read_config_section(const ConfigSchema& s, ConfigReader& r, const std::string& section,
                         const YAML::Node& node, Config& c);
void emit_config_section(const ConfigSchema& s, YAML::Emitter& e, const std::string& section,
                         const Config& c);
// Writes the value `c` holds for key `k`, as to_yaml writes it.
void emit_config_value(const ConfigSchema& s, YAML::Emitter& e, const ConfigKey& k,
                       const Config& c);

}  // namespace edp::bench
