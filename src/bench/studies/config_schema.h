// The config's whole key table (DESIGN §7): the core keys (config/) and every
// registered study's section (studies.def), and the config's file-level calls
// on that table. config/ knows no study, so the table is put together here,
// where the registry is; the engine, which reads only the power keys, uses
// config/'s core table (core_config_schema()) and links no study.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "bench/config/config.h"
#include "bench/config/config_keys.h"

namespace edp::bench {

// Each registered study's name and section (studies.def), in its order.
std::vector<StudyKeys> registered_study_keys();
// make_config_schema(registered_study_keys(), {"mlp"}): the core keys with
// each study's section; `studies:` accepts the registry's names and is
// `[mlp]` when not given.
const ConfigSchema& config_schema();
// The study names the tool knows, in the order of DESIGN §9 (the registry's).
const std::vector<std::string>& known_studies();
const ConfigKey* find_config_key(const std::string& path);

// config.h's calls on config_schema() (see there).
Config load_config(const std::string& path, bool keep_going = false);
Config parse_config(const std::string& yaml_text, const std::string& origin,
                    bool keep_going = false);
std::string to_yaml(const Config& c);
void set_config_value(Config& c, const std::string& path, const std::string& value,
                      const std::string& option);
void set_config_list(Config& c, const std::string& path, const std::vector<std::string>& values,
                     const std::string& option);
std::vector<std::string> config_value_problems(
    const Config& c, const std::vector<std::string>& paths,
    const std::function<std::string(const std::string& path)>& option);
void apply_filters(Config& c, const std::vector<std::string>& workloads,
                   const std::vector<std::string>& sizes, const std::vector<std::string>& devices,
                   int runs, int iterations, const std::vector<std::string>& studies = {});

}  // namespace edp::bench
