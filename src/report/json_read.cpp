// parse_json on nlohmann-json's SAX parser: nlohmann checks the syntax and
// UTF-8 and decodes escapes; the handler below builds the loosely typed tree
// in document order, keeping each number's literal. Depth is bounded so that
// a hostile file cannot exhaust memory or the stack when the tree is freed.
#include "report/json_read.h"

#include "common/safe_file.h"

#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <unordered_set>
#include <vector>

namespace edp::report {

const JsonValue* JsonValue::find(const std::string& key) const {
  if (type != Type::object) return nullptr;
  for (const auto& [k, v] : object)
    if (k == key) return &v;
  return nullptr;
}

const JsonValue* JsonValue::at(std::initializer_list<const char*> keys) const {
  const JsonValue* v = this;
  for (const char* k : keys) {
    v = v->find(k);
    if (!v) return nullptr;
  }
  return v;
}

namespace {

constexpr size_t kMaxDepth = 200;
// Values in a document: a JsonValue is about 100 bytes, so the byte cap alone
// (16 MiB of "0,") let a tree of 8 million values take 1.7 GB. An honest
// context.json has a few hundred.
constexpr size_t kMaxValues = 500000;
// Keys in one object: an honest context.json has fewer than 100 in any. The
// typed reader (common/run_context.cpp, nlohmann's ordered_json) searches an
// object's keys linearly for each insert: 80000 keys took it 18 s, 160000
// 47 s, inside both caps above (review).
constexpr size_t kMaxKeys = 4096;

void append_quoted(std::string& out, const std::string& s) {
  out += nlohmann::json(s).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

void append_json(std::string& out, const JsonValue& v) {
  switch (v.type) {
    case JsonValue::Type::null:
      out += "null";
      break;
    case JsonValue::Type::boolean:
      out += v.boolean ? "true" : "false";
      break;
    case JsonValue::Type::number:
      out += v.string;
      break;
    case JsonValue::Type::string:
      append_quoted(out, v.string);
      break;
    case JsonValue::Type::array:
      out += '[';
      for (size_t i = 0; i < v.array.size(); ++i) {
        if (i) out += ", ";
        append_json(out, v.array[i]);
      }
      out += ']';
      break;
    case JsonValue::Type::object:
      out += '{';
      for (size_t i = 0; i < v.object.size(); ++i) {
        if (i) out += ", ";
        append_quoted(out, v.object[i].first);
        out += ": ";
        append_json(out, v.object[i].second);
      }
      out += '}';
      break;
  }
}

// "<origin>: line L column C: what" for the byte at `offset` (0-based).
[[noreturn]] void fail(const std::string& text, const std::string& origin, size_t offset,
                       const std::string& what) {
  size_t line = 1, col = 1;
  for (size_t k = 0; k < offset && k < text.size(); ++k) {
    if (text[k] == '\n') {
      ++line;
      col = 1;
    } else {
      ++col;
    }
  }
  throw std::runtime_error(origin + ": line " + std::to_string(line) + " column " +
                           std::to_string(col) + ": " + what);
}

// Offset of the bracket that opens nesting level kMaxDepth + 1.
size_t too_deep_offset(const std::string& text) {
  size_t depth = 0;
  bool in_string = false;
  for (size_t k = 0; k < text.size(); ++k) {
    const char c = text[k];
    if (in_string) {
      if (c == '\\')
        ++k;
      else if (c == '"')
        in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxDepth) return k;
    } else if (c == ']' || c == '}') {
      if (depth) --depth;
    }
  }
  return text.size();
}

// Offset of the opening quote of the `n`-th (1-based) object key in document
// order: a string that is followed, after whitespace, by ':'.
size_t nth_key_offset(const std::string& text, size_t n) {
  size_t keys = 0;
  for (size_t k = 0; k < text.size(); ++k) {
    if (text[k] != '"') continue;
    const size_t open = k;
    for (++k; k < text.size() && text[k] != '"'; ++k)
      if (text[k] == '\\') ++k;
    size_t after = k + 1;
    while (after < text.size() && (text[after] == ' ' || text[after] == '\t' ||
                                   text[after] == '\n' || text[after] == '\r'))
      ++after;
    if (after < text.size() && text[after] == ':' && ++keys == n) return open;
  }
  return text.size();
}

struct TooDeep {};
struct TooMany {};
struct KeyTwice {
  std::string key;
  size_t nth;  // the repeated key is the nth key of the document
};
struct TooManyKeys {
  size_t nth;  // the key past the limit is the nth key of the document
};

class TreeBuilder : public nlohmann::json_sax<nlohmann::json> {
 public:
  TreeBuilder(const std::string& text, const std::string& origin) : text_(text), origin_(origin) {}

  JsonValue root;

  bool null() override {
    add(JsonValue{});
    return true;
  }
  bool boolean(bool b) override {
    JsonValue v;
    v.type = JsonValue::Type::boolean;
    v.boolean = b;
    add(std::move(v));
    return true;
  }
  bool number_integer(number_integer_t n) override {
    return number(static_cast<double>(n), std::to_string(n));
  }
  bool number_unsigned(number_unsigned_t n) override {
    return number(static_cast<double>(n), std::to_string(n));
  }
  bool number_float(number_float_t x, const string_t& literal) override {
    return number(x, literal);
  }
  bool string(string_t& s) override {
    JsonValue v;
    v.type = JsonValue::Type::string;
    v.string = std::move(s);
    add(std::move(v));
    return true;
  }
  bool binary(binary_t&) override { return false; }  // not produced by the text parser
  bool start_object(std::size_t) override {
    keys_.emplace_back();
    return open(JsonValue::Type::object);
  }
  // A key twice in one object is refused: RFC 8259 (section 4) leaves which
  // one counts to each reader, and nlohmann keeps the last where find() here
  // would give the first, so one file could show two boards.
  // nlohmann calls key() before it reads the ':' after the key, so the
  // refusal waits for the key's value: a syntax error there (`{"a":1,"a"}`,
  // a file cut short) is reported as such, at its own place.
  bool key(string_t& k) override {
    ++keys_read_;
    if (keys_.back().size() >= kMaxKeys) throw TooManyKeys{keys_read_};
    if (!keys_.back().insert(k).second) twice_ = KeyTwice{k, keys_read_};
    stack_.back()->object.emplace_back(std::move(k), JsonValue{});
    return true;
  }
  bool end_object() override {
    keys_.pop_back();
    stack_.pop_back();
    return true;
  }
  bool start_array(std::size_t) override { return open(JsonValue::Type::array); }
  bool end_array() override {
    stack_.pop_back();
    return true;
  }
  bool parse_error(std::size_t position, const std::string&,
                   const nlohmann::detail::exception& ex) override {
    // ex.what(): "[json.exception.parse_error.101] parse error at line L,
    // column C: syntax error while parsing value - invalid literal; last
    // read: '...'": keep what follows "column C: ".
    std::string what = ex.what();
    const size_t col = what.find("column ");
    if (col != std::string::npos) {
      const size_t colon = what.find(": ", col);
      if (colon != std::string::npos) what = what.substr(colon + 2);
    }
    // The token nlohmann quotes is the file's own text: short and escaped.
    const std::string quote = "last read: '";
    const size_t read = what.find(quote);
    if (read != std::string::npos) {
      std::string token = what.substr(read + quote.size());
      if (!token.empty() && token.back() == '\'') token.pop_back();
      what = what.substr(0, read + quote.size()) + escaped_excerpt(token) + "'";
    }
    fail(text_, origin_, position ? position - 1 : 0, what);
  }

 private:
  bool number(double x, std::string literal) {
    JsonValue v;
    v.type = JsonValue::Type::number;
    v.number = x;
    v.string = std::move(literal);
    add(std::move(v));
    return true;
  }
  // The slot for the next value: the root, the next array element, or the
  // value of the key just read.
  JsonValue* add(JsonValue v) {
    if (twice_) throw *twice_;
    if (++values_ > kMaxValues) throw TooMany{};
    JsonValue* slot = &root;
    if (!stack_.empty()) {
      JsonValue* top = stack_.back();
      if (top->type == JsonValue::Type::array) {
        top->array.push_back(std::move(v));
        return &top->array.back();
      }
      slot = &top->object.back().second;
    }
    *slot = std::move(v);
    return slot;
  }
  bool open(JsonValue::Type type) {
    if (stack_.size() >= kMaxDepth) throw TooDeep{};
    JsonValue v;
    v.type = type;
    stack_.push_back(add(std::move(v)));
    return true;
  }

  const std::string& text_;
  const std::string& origin_;
  std::vector<JsonValue*> stack_;                      // open arrays and objects, innermost last
  std::vector<std::unordered_set<std::string>> keys_;  // of each open object
  std::optional<KeyTwice> twice_;                      // a repeated key, refused at its value
  size_t values_ = 0, keys_read_ = 0;
};

}  // namespace

std::string JsonValue::to_text() const {
  switch (type) {
    case Type::null:
      return "";
    case Type::boolean:
      return boolean ? "true" : "false";
    case Type::number:
    case Type::string:
      return string;
    default: {
      std::string out;
      append_json(out, *this);
      return out;
    }
  }
}

JsonValue parse_json(const std::string& text, const std::string& origin) {
  TreeBuilder builder(text, origin);
  try {
    nlohmann::json::sax_parse(text, &builder);
  } catch (const TooDeep&) {
    fail(text, origin, too_deep_offset(text), "nesting deeper than 200 levels");
  } catch (const KeyTwice& twice) {
    fail(text, origin, nth_key_offset(text, twice.nth),
         "the key \"" + escaped_excerpt(twice.key) +
             "\" appears twice in one object (each key once: which of the two is meant "
             "is not known)");
  } catch (const TooManyKeys& many) {
    fail(text, origin, nth_key_offset(text, many.nth),
         "an object with more than " + std::to_string(kMaxKeys) +
             " keys (the limit; an edpbench context.json has fewer than 100 in any object)");
  } catch (const TooMany&) {
    throw std::runtime_error(origin + ": more than " + std::to_string(kMaxValues) +
                             " values (the limit; an edpbench context.json has a few hundred)");
  }
  return std::move(builder.root);
}

JsonValue read_json_file(const std::string& path) {
  return parse_json(read_untrusted_file(path, file_kind::context_json), path);
}

}  // namespace edp::report
