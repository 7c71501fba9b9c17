// Recursive-descent JSON parser; \uXXXX escapes (with surrogate pairs) are
// decoded to UTF-8. Depth is bounded so a hostile file cannot blow the stack.
#include "report/json_read.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

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

void append_quoted(std::string& out, const std::string& s) {
  out += '"';
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c == '\n') {
      out += "\\n";
    } else if (c < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
  }
  out += '"';
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

class Parser {
 public:
  Parser(const std::string& text, const std::string& origin) : s_(text), origin_(origin) {}

  JsonValue parse_document() {
    JsonValue v = parse_value(0);
    skip_ws();
    if (i_ != s_.size()) fail("unexpected text after the JSON value");
    return v;
  }

 private:
  static constexpr int kMaxDepth = 200;

  [[noreturn]] void fail(const std::string& what) const {
    size_t line = 1, col = 1;
    for (size_t k = 0; k < i_ && k < s_.size(); ++k) {
      if (s_[k] == '\n') {
        ++line;
        col = 1;
      } else {
        ++col;
      }
    }
    throw std::runtime_error(origin_ + ": line " + std::to_string(line) + " column " +
                             std::to_string(col) + ": " + what);
  }

  void skip_ws() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\n' || s_[i_] == '\r'))
      ++i_;
  }

  bool consume(const char* literal) {
    size_t k = 0;
    while (literal[k]) {
      if (i_ + k >= s_.size() || s_[i_ + k] != literal[k]) return false;
      ++k;
    }
    i_ += k;
    return true;
  }

  JsonValue parse_value(int depth) {
    if (depth > kMaxDepth) fail("nesting deeper than 200 levels");
    skip_ws();
    if (i_ >= s_.size()) fail("unexpected end of input");
    JsonValue v;
    const char c = s_[i_];
    if (c == '{') {
      v.type = JsonValue::Type::object;
      ++i_;
      skip_ws();
      if (i_ < s_.size() && s_[i_] == '}') {
        ++i_;
        return v;
      }
      for (;;) {
        skip_ws();
        if (i_ >= s_.size() || s_[i_] != '"') fail("expected a string key");
        std::string key = parse_string();
        skip_ws();
        if (i_ >= s_.size() || s_[i_] != ':') fail("expected ':' after a key");
        ++i_;
        v.object.emplace_back(std::move(key), parse_value(depth + 1));
        skip_ws();
        if (i_ < s_.size() && s_[i_] == ',') {
          ++i_;
        } else if (i_ < s_.size() && s_[i_] == '}') {
          ++i_;
          return v;
        } else {
          fail("expected ',' or '}' in an object");
        }
      }
    }
    if (c == '[') {
      v.type = JsonValue::Type::array;
      ++i_;
      skip_ws();
      if (i_ < s_.size() && s_[i_] == ']') {
        ++i_;
        return v;
      }
      for (;;) {
        v.array.push_back(parse_value(depth + 1));
        skip_ws();
        if (i_ < s_.size() && s_[i_] == ',') {
          ++i_;
        } else if (i_ < s_.size() && s_[i_] == ']') {
          ++i_;
          return v;
        } else {
          fail("expected ',' or ']' in an array");
        }
      }
    }
    if (c == '"') {
      v.type = JsonValue::Type::string;
      v.string = parse_string();
      return v;
    }
    if (consume("true")) {
      v.type = JsonValue::Type::boolean;
      v.boolean = true;
      return v;
    }
    if (consume("false")) {
      v.type = JsonValue::Type::boolean;
      return v;
    }
    if (consume("null")) return v;
    if (c == '-' || (c >= '0' && c <= '9')) return parse_number();
    fail(std::string("unexpected character '") + c + "'");
  }

  JsonValue parse_number() {
    const size_t start = i_;
    auto digits = [&] {
      const size_t d = i_;
      while (i_ < s_.size() && s_[i_] >= '0' && s_[i_] <= '9') ++i_;
      return i_ > d;
    };
    if (s_[i_] == '-') ++i_;
    if (!digits()) fail("malformed number");
    if (i_ < s_.size() && s_[i_] == '.') {
      ++i_;
      if (!digits()) fail("malformed number");
    }
    if (i_ < s_.size() && (s_[i_] == 'e' || s_[i_] == 'E')) {
      ++i_;
      if (i_ < s_.size() && (s_[i_] == '+' || s_[i_] == '-')) ++i_;
      if (!digits()) fail("malformed number");
    }
    JsonValue v;
    v.type = JsonValue::Type::number;
    v.string = s_.substr(start, i_ - start);
    v.number = std::strtod(v.string.c_str(), nullptr);
    return v;
  }

  unsigned parse_hex4() {
    if (i_ + 4 > s_.size()) fail("truncated \\u escape");
    unsigned cp = 0;
    for (int k = 0; k < 4; ++k) {
      const char h = s_[i_++];
      cp <<= 4;
      if (h >= '0' && h <= '9')
        cp |= static_cast<unsigned>(h - '0');
      else if (h >= 'a' && h <= 'f')
        cp |= static_cast<unsigned>(h - 'a' + 10);
      else if (h >= 'A' && h <= 'F')
        cp |= static_cast<unsigned>(h - 'A' + 10);
      else
        fail("bad hex digit in \\u escape");
    }
    return cp;
  }

  static void append_utf8(std::string& out, unsigned cp) {
    if (cp < 0x80) {
      out += static_cast<char>(cp);
    } else if (cp < 0x800) {
      out += static_cast<char>(0xC0 | (cp >> 6));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      out += static_cast<char>(0xE0 | (cp >> 12));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (cp >> 18));
      out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    }
  }

  std::string parse_string() {
    ++i_;  // opening quote
    std::string out;
    for (;;) {
      if (i_ >= s_.size()) fail("unterminated string");
      const char c = s_[i_++];
      if (c == '"') return out;
      if (static_cast<unsigned char>(c) < 0x20) fail("control character in a string");
      if (c != '\\') {
        out += c;
        continue;
      }
      if (i_ >= s_.size()) fail("unterminated string");
      const char e = s_[i_++];
      switch (e) {
        case '"':
        case '\\':
        case '/':
          out += e;
          break;
        case 'b':
          out += '\b';
          break;
        case 'f':
          out += '\f';
          break;
        case 'n':
          out += '\n';
          break;
        case 'r':
          out += '\r';
          break;
        case 't':
          out += '\t';
          break;
        case 'u': {
          unsigned cp = parse_hex4();
          if (cp >= 0xD800 && cp < 0xDC00 && i_ + 1 < s_.size() && s_[i_] == '\\' &&
              s_[i_ + 1] == 'u') {
            i_ += 2;
            const unsigned lo = parse_hex4();
            if (lo >= 0xDC00 && lo < 0xE000)
              cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
            else
              fail("unpaired surrogate in \\u escape");
          }
          append_utf8(out, cp);
          break;
        }
        default:
          fail(std::string("bad escape '\\") + e + "'");
      }
    }
  }

  const std::string& s_;
  const std::string& origin_;
  size_t i_ = 0;
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
  return Parser(text, origin).parse_document();
}

JsonValue read_json_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " + path);
  std::ostringstream ss;
  ss << in.rdbuf();
  return parse_json(ss.str(), path);
}

}  // namespace edp::report
