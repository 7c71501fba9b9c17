// A JSON object builder for context.json, on nlohmann-json: keys keep their
// insertion order, strings are escaped per RFC 8259 (invalid UTF-8 becomes
// U+FFFD), numbers keep 10 significant digits, NaN and infinities become null.
// str(indent) indents the top level; nested objects are written compact.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace edp {

std::string json_string(const std::string& s);
std::string json_number(double v);

class JsonObject {
 public:
  JsonObject& set(const std::string& key, const std::string& value);
  JsonObject& set(const std::string& key, const char* value) {
    return set(key, std::string(value));
  }
  JsonObject& set(const std::string& key, double value);
  JsonObject& set(const std::string& key, int value) {
    return set(key, static_cast<double>(value));
  }
  JsonObject& set(const std::string& key, bool value);
  JsonObject& set(const std::string& key, const JsonObject& value);
  JsonObject& set(const std::string& key, const std::map<std::string, std::string>& value);
  JsonObject& set(const std::string& key, const std::map<std::string, double>& value);
  // `json` must already be valid JSON (an object from another module); it is
  // kept verbatim. Text that is not JSON is stored as a JSON string.
  JsonObject& set_raw(const std::string& key, const std::string& json);
  std::string str(int indent = 2, int depth = 0) const;

 private:
  std::vector<std::pair<std::string, std::string>> fields_;  // key, serialised value
};

}  // namespace edp
