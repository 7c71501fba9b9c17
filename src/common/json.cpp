// JsonObject on top of nlohmann-json: nlohmann escapes strings (invalid UTF-8
// becomes U+FFFD) and formats numbers; this file only keeps the layout that
// context.json has always had (the top level indented, nested values compact,
// raw fragments verbatim) and the keys in insertion order.
#include "common/json.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>

namespace edp {
namespace {

std::string dump(const nlohmann::json& j) {
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace

std::string json_string(const std::string& s) { return dump(nlohmann::json(s)); }

std::string json_number(double v) {
  if (!std::isfinite(v)) return "null";
  // Ten significant digits, as context.json has always had them: a mean of
  // sensor readings is 1.929, not 1.9289999999999998.
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.10g", v);
  const double r = std::strtod(buf, nullptr);
  if (std::fabs(r) < 9.0e15 && r == std::trunc(r))
    return dump(nlohmann::json(static_cast<long long>(r)));
  return dump(nlohmann::json(r));
}

JsonObject& JsonObject::set(const std::string& key, const std::string& value) {
  fields_.emplace_back(key, json_string(value));
  return *this;
}
JsonObject& JsonObject::set(const std::string& key, double value) {
  fields_.emplace_back(key, json_number(value));
  return *this;
}
JsonObject& JsonObject::set(const std::string& key, bool value) {
  fields_.emplace_back(key, dump(nlohmann::json(value)));
  return *this;
}
JsonObject& JsonObject::set(const std::string& key, const JsonObject& value) {
  fields_.emplace_back(key, value.str(0));
  return *this;
}
JsonObject& JsonObject::set(const std::string& key,
                            const std::map<std::string, std::string>& value) {
  JsonObject o;
  for (const auto& [k, v] : value) o.set(k, v);
  return set(key, o);
}
JsonObject& JsonObject::set(const std::string& key, const std::map<std::string, double>& value) {
  JsonObject o;
  for (const auto& [k, v] : value) o.set(k, v);
  return set(key, o);
}
JsonObject& JsonObject::set_raw(const std::string& key, const std::string& json) {
  // Kept verbatim when it is JSON; anything else is stored as a string, so
  // that the document stays valid.
  fields_.emplace_back(key, nlohmann::json::accept(json) ? json : json_string(json));
  return *this;
}

std::string JsonObject::str(int indent, int depth) const {
  if (fields_.empty()) return "{}";
  const std::string pad =
      indent ? "\n" + std::string(static_cast<size_t>(indent * (depth + 1)), ' ') : "";
  const std::string end =
      indent ? "\n" + std::string(static_cast<size_t>(indent * depth), ' ') : "";
  std::string out = "{";
  for (size_t i = 0; i < fields_.size(); ++i) {
    out += (i ? "," : "") + pad + json_string(fields_[i].first) + (indent ? ": " : ":") +
           fields_[i].second;
  }
  return out + end + "}";
}

}  // namespace edp
