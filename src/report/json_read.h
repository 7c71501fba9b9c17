// A JSON reader (RFC 8259, nlohmann-json underneath) for context.json: the
// report shows whatever the run recorded, so the document is kept as a loosely
// typed tree in the order the keys were written, numbers keep their literal,
// and lookups of absent keys return null. A key twice in one object is an
// error (which one the writer meant is not known).
#pragma once

#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

namespace edp::report {

struct JsonValue {
  enum class Type { null, boolean, number, string, array, object };
  Type type = Type::null;
  bool boolean = false;
  double number = 0;
  std::string string;  // the text of a string, or the literal of a number
  std::vector<JsonValue> array;
  std::vector<std::pair<std::string, JsonValue>> object;  // in document order

  bool is_null() const { return type == Type::null; }
  bool is_object() const { return type == Type::object; }
  bool is_array() const { return type == Type::array; }
  bool is_scalar() const {
    return type == Type::boolean || type == Type::number || type == Type::string;
  }

  // Member `key` of an object; nullptr when absent or not an object.
  const JsonValue* find(const std::string& key) const;
  // Follows nested object keys: at({"board", "model"}); nullptr when any is absent.
  const JsonValue* at(std::initializer_list<const char*> keys) const;
  // Scalars as text (numbers as written, true/false, strings unquoted); null ""
  // and arrays/objects as compact JSON.
  std::string to_text() const;
};

// Throws std::runtime_error "<origin>: line L column C: what" on malformed input,
// on a key given twice in one object and on an object of more than 4096 keys.
JsonValue parse_json(const std::string& text, const std::string& origin = "<json>");
// Through read_untrusted_file (common/safe_file.h): a link, FIFO, device or a
// file over context.json's cap is a UsageError before anything is read.
JsonValue read_json_file(const std::string& path);

}  // namespace edp::report
