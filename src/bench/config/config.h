// The experiment configuration (DESIGN §7), loaded from YAML and validated.
// Every error is a UsageError naming file:line:column and what is allowed.
// The types a config holds are in config_types.h; loading, writing and the
// command line's overrides walk a key table (ConfigSchema, config_keys.h),
// which each call is given: the whole table, the studies' sections included,
// is the study registry's (src/bench/studies/config_schema.h, which also
// declares these calls with that table, as load_config(path) and so on).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "bench/config/config_types.h"

namespace edp::bench {

struct ConfigSchema;

// Loads and validates; throws edp::UsageError with every problem found, one
// per line, each "FILE:LINE:COL: message".
// keep_going: the errors of single keys go into Config::problems instead
// (a file that is no YAML mapping still throws).
Config load_config(const ConfigSchema& s, const std::string& path, bool keep_going = false);
Config parse_config(const ConfigSchema& s, const std::string& yaml_text, const std::string& origin,
                    bool keep_going = false);

// Canonical YAML of the resolved configuration (for context.json and for
// --resume's "same config" check).
std::string to_yaml(const ConfigSchema& s, const Config& c);

// Why a trace file cannot be used (missing, not a regular file), or "".
std::string trace_file_problem(const std::string& file);

// Sets one key from the command line through the key table (config_keys.h):
// the same parsing, ranges and choices as in a config file. Errors name the
// option and value ("--runs 0: 'runs' = 0 is out of range [1, 100000]").
void set_config_value(const ConfigSchema& s, Config& c, const std::string& path,
                      const std::string& value, const std::string& option);
void set_config_list(const ConfigSchema& s, Config& c, const std::string& path,
                     const std::vector<std::string>& values, const std::string& option);
// Reads the values `c` holds for `paths` back through the key table, as a
// config file's are read: every problem, each "OPTION VALUE: message" with
// OPTION = option(path) ("--rate-hz", "rate_hz"). For surfaces that take
// typed values (the monitor's options, measure's flags), so that they accept
// exactly what a config accepts, with the same messages.
std::vector<std::string> config_value_problems(
    const ConfigSchema& s, const Config& c, const std::vector<std::string>& paths,
    const std::function<std::string(const std::string& path)>& option);

// Applies the CLI filters of `run` (--workloads, --sizes, --devices, --runs,
// --iterations); unknown names throw UsageError listing the valid ones.
void apply_filters(const ConfigSchema& s, Config& c, const std::vector<std::string>& workloads,
                   const std::vector<std::string>& sizes, const std::vector<std::string>& devices,
                   int runs, int iterations, const std::vector<std::string>& studies = {});

}  // namespace edp::bench
