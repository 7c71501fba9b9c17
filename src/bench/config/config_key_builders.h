// Builders of config keys (config_key.h) for the table's own keys and for
// each study's section (studies/<name>/<name>_config.cpp): a key is its path,
// its range or choices, a doc string and the member it reads and writes.
#pragma once

#include <functional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "bench/config/config_key.h"

namespace edp::bench {

// Field accessors are generic lambdas, `[](auto& c) -> auto& { return c.runs; }`,
// so one expression serves both the setter and the getter.
template <class F>
ConfigKey integer_key(std::string path, int64_t lo, int64_t hi, std::string doc, F field) {
  ConfigKey k;
  k.path = std::move(path);
  k.type = KeyType::integer;
  k.min_integer = lo;
  k.max_integer = hi;
  k.doc = std::move(doc);
  k.set = [field](Config& c, const KeyValue& v) {
    using T = std::decay_t<decltype(field(c))>;
    field(c) = static_cast<T>(v.integer);
  };
  k.get = [field](const Config& c) {
    KeyValue v;
    v.integer = static_cast<int64_t>(field(c));
    return v;
  };
  return k;
}

template <class F>
ConfigKey number_key(std::string path, double lo, double hi, std::string doc, F field) {
  ConfigKey k;
  k.path = std::move(path);
  k.type = KeyType::number;
  k.lo = lo;
  k.hi = hi;
  k.doc = std::move(doc);
  k.set = [field](Config& c, const KeyValue& v) { field(c) = v.number; };
  k.get = [field](const Config& c) {
    KeyValue v;
    v.number = field(c);
    return v;
  };
  return k;
}

template <class F>
ConfigKey boolean_key(std::string path, std::string doc, F field) {
  ConfigKey k;
  k.path = std::move(path);
  k.type = KeyType::boolean;
  k.doc = std::move(doc);
  k.set = [field](Config& c, const KeyValue& v) { field(c) = v.boolean; };
  k.get = [field](const Config& c) {
    KeyValue v;
    v.boolean = field(c);
    return v;
  };
  return k;
}

// A text key; with `choices`, one of them.
template <class F>
ConfigKey text_key(std::string path, std::vector<std::string> choices, std::string doc, F field) {
  ConfigKey k;
  k.path = std::move(path);
  k.type = choices.empty() ? KeyType::text : KeyType::choice;
  k.choices = std::move(choices);
  k.doc = std::move(doc);
  k.set = [field](Config& c, const KeyValue& v) { field(c) = v.text; };
  k.get = [field](const Config& c) {
    KeyValue v;
    v.text = field(c);
    return v;
  };
  return k;
}

template <class F>
ConfigKey text_list_key(std::string path, std::vector<std::string> choices, std::string noun,
                        std::string doc, F field) {
  ConfigKey k;
  k.path = std::move(path);
  k.type = KeyType::text_list;
  k.choices = std::move(choices);
  k.item_noun = std::move(noun);
  k.doc = std::move(doc);
  k.set = [field](Config& c, const KeyValue& v) { field(c) = v.texts; };
  k.get = [field](const Config& c) {
    KeyValue v;
    v.texts = field(c);
    return v;
  };
  return k;
}

template <class F>
ConfigKey integer_list_key(std::string path, int64_t lo, int64_t hi, std::string doc, F field) {
  ConfigKey k;
  k.path = std::move(path);
  k.type = KeyType::integer_list;
  k.min_integer = lo;
  k.max_integer = hi;
  k.doc = std::move(doc);
  k.set = [field](Config& c, const KeyValue& v) { field(c) = v.integers; };
  k.get = [field](const Config& c) {
    KeyValue v;
    v.integers = field(c);
    return v;
  };
  return k;
}

// A member of study section S (held in Config::study_sections) as a field
// accessor for the builders above: `section_member(&OpsConfig::steps)` reads
// cfg.section<OpsConfig>().steps and writes cfg.edit<OpsConfig>().steps.
template <class S>
const S& section_of(const Config& c) {
  return c.section<S>();
}
template <class S>
S& section_of(Config& c) {
  return c.edit<S>();
}
template <class S, class T>
auto section_member(T S::*member) {
  return [member](auto& c) -> auto& { return section_of<S>(c).*member; };
}

inline ConfigKey section_key(std::string path, bool flow, std::string doc,
                             std::function<bool(const Config&)> emitted = nullptr) {
  ConfigKey k;
  k.path = std::move(path);
  k.type = KeyType::section;
  k.flow = flow;
  k.doc = std::move(doc);
  k.emitted = std::move(emitted);
  return k;
}

inline ConfigKey custom_key(std::string path, std::string doc,
                            std::function<void(ConfigReader&, const YAML::Node&, Config&)> parse,
                            std::function<void(YAML::Emitter&, const Config&)> emit,
                            std::function<bool(const Config&)> emitted = nullptr) {
  ConfigKey k;
  k.path = std::move(path);
  k.type = KeyType::custom;
  k.doc = std::move(doc);
  k.parse = std::move(parse);
  k.emit = std::move(emit);
  k.emitted = std::move(emitted);
  return k;
}

// A study's section: the section key, emitted when `study` is selected and
// written on one line, then `keys`, each under "<study>." and named by its
// whole path in errors (ConfigKey::path_label).
void add_study_section(KeyTable& t, const std::string& study, std::string doc,
                       std::vector<ConfigKey> keys);

}  // namespace edp::bench
