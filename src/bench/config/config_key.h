// One config key (DESIGN §7): its place, type, range or choices, doc string
// and the accessors into Config that read and write its value. The table of
// every key is config_keys.h; the builders that make one are
// config_key_builders.h.
#pragma once

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "bench/config/config_reader.h"
#include "bench/config/config_types.h"

namespace edp::bench {

enum class KeyType {
  integer,       // decimal, in [lo, hi]; `choices` (as text) when only some values are valid
  number,        // decimal, finite, in [lo, hi]
  boolean,       // true/false (yes/no/on/off)
  text,          // any single value
  choice,        // one of `choices`
  text_list,     // [a, b]: no repeats; each one of `choices` when given
  integer_list,  // [1, 2]: no repeats; each in [lo, hi]
  section,       // a mapping whose keys are the entries under `path`
  custom,        // read and written by `parse` and `emit`
};

// A value as the table's accessors pass it (the member for `type` is used).
struct KeyValue {
  int64_t integer = 0;
  double number = 0;
  bool boolean = false;
  std::string text;
  std::vector<std::string> texts;
  std::vector<int64_t> integers;
};

struct ConfigKey {
  std::string path;  // "power.rate_hz"; a top-level key has no dot
  KeyType type = KeyType::text;
  std::string doc;
  double lo = 0, hi = 0;                     // number (and lists' items)
  int64_t min_integer = 0, max_integer = 0;  // integer, integer_list
  std::vector<std::string> choices;
  std::string item_noun;     // text_list: "workload" in "unknown workload 'x'"
  bool hex = false;          // integer: 0x.. accepted too (I2C addresses)
  bool flow = false;         // section: emitted on one line
  bool allow_empty = false;  // lists: [] is a valid value
  std::function<void(Config&, const KeyValue&)> set;
  std::function<KeyValue(const Config&)> get;
  std::function<void(ConfigReader&, const YAML::Node&, Config&)> parse;  // custom
  std::function<void(YAML::Emitter&, const Config&)> emit;               // custom
  std::function<bool(const Config&)> emitted;                            // null: always
  // After every key is read: what is wrong with this key's value given the
  // others ("'probe.max_runs' must be at least 'probe.runs'"), or "". The error
  // names the key's place.
  std::function<std::string(const Config&)> check;
  // Errors name the whole path ("probe.steps") rather than the name ("steps"):
  // a study section's keys repeat top-level names.
  bool path_label = false;

  std::string section() const;  // "power" for "power.rate_hz", "" at the top
  std::string name() const;     // "rate_hz"
  // The name errors use: "runs", "source", "probe.steps" (see path_label).
  std::string label() const;
};

using KeyTable = std::vector<ConfigKey>;

}  // namespace edp::bench
