#include "common/json.h"

#include <cmath>
#include <cstdio>

namespace edp {

std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out + "\"";
}

std::string json_number(double v) {
  if (!std::isfinite(v)) return "null";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.10g", v);
  return buf;
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
  fields_.emplace_back(key, value ? "true" : "false");
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
  fields_.emplace_back(key, json);
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
