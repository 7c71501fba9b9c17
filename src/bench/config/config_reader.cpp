// Reading one YAML config document (see config_reader.h).
#include "bench/config/config_reader.h"
#include "common/text.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <map>
#include <set>
#include <sstream>

namespace edp::bench {

std::string located(const std::string& origin, const YAML::Mark& m) {
  const bool known = m.line >= 0 && m.column >= 0;
  return origin + ":" + std::to_string(known ? m.line + 1 : 1) + ":" +
         std::to_string(known ? m.column + 1 : 1);
}

std::string join_names(const std::vector<std::string>& v, const std::string& sep) {
  std::string out;
  for (size_t i = 0; i < v.size(); ++i) out += (i ? sep : "") + v[i];
  return out;
}

namespace {

bool all_digits(const std::string& s, size_t from) {
  return from < s.size() && std::all_of(s.begin() + static_cast<long>(from), s.end(),
                                        [](unsigned char c) { return std::isdigit(c) != 0; });
}

// A plain decimal integer: optional sign, digits, no leading zero.
bool is_decimal_integer(const std::string& s) {
  const size_t start = (!s.empty() && (s[0] == '-' || s[0] == '+')) ? 1 : 0;
  if (!all_digits(s, start)) return false;
  return s.size() - start == 1 || s[start] != '0';
}

}  // namespace

void ConfigReader::error_at(const std::string& where, const std::string& msg) {
  // At most kMaxErrors lines: a list of a million bad entries stays readable.
  constexpr size_t kMaxErrors = 50;
  const std::string line = where + ": " + msg;
  if (std::find(errors_.begin(), errors_.end(), line) != errors_.end()) return;
  if (errors_.size() < kMaxErrors)
    errors_.push_back(line);
  else if (errors_.size() == kMaxErrors)
    errors_.push_back(origin_ + ": (more errors left out; fix these first)");
}

void ConfigReader::error(const YAML::Node& at, const std::string& msg) { error_at(where(at), msg); }

void ConfigReader::fail(const YAML::Node& at, const std::string& msg) {
  error(at, msg);
  throw Abandon{};
}

void ConfigReader::guard(const std::function<void()>& read) {
  try {
    read();
  } catch (const Abandon&) {
  }
}

void ConfigReader::expect_map(const YAML::Node& n, const std::string& what) {
  if (!n.IsMap()) fail(n, what + " must be a mapping (key: value)");
}

std::string ConfigReader::key_name(const YAML::Node& k) {
  if (!k.IsScalar()) fail(k, "a key must be a plain name, not a list or mapping");
  return k.Scalar();
}

void ConfigReader::check_keys(const YAML::Node& map, const std::vector<std::string>& allowed,
                              const std::string& section) {
  std::map<std::string, YAML::Mark> seen;
  for (const auto& kv : map) {
    guard([&] {
      const std::string key = key_name(kv.first);
      if (std::find(allowed.begin(), allowed.end(), key) == allowed.end())
        fail(kv.first, "unknown key '" + terminal_text(key) + "' in " + section +
                           " (valid keys: " + join_names(allowed) + ")");
      const auto first = seen.find(key);
      if (first != seen.end())
        fail(kv.first, "key '" + terminal_text(key) + "' is given twice in " + section +
                           " (first at line " + std::to_string(first->second.line + 1) +
                           "); YAML would keep only the first value: remove one");
      seen.emplace(key, kv.first.Mark());
    });
  }
}

std::string ConfigReader::scalar(const YAML::Node& n, const std::string& key) {
  if (!n.IsScalar()) fail(n, "'" + key + "' must be a single value");
  return n.Scalar();
}

int64_t ConfigReader::integer(const YAML::Node& n, const std::string& key, int64_t lo, int64_t hi,
                              bool hex) {
  const std::string s = scalar(n, key);
  const bool is_hex =
      hex && s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') &&
      std::all_of(s.begin() + 2, s.end(), [](unsigned char c) { return std::isxdigit(c) != 0; });
  if (!is_decimal_integer(s) && !is_hex) {
    std::string hint;
    if (s.size() > 1 && s[0] == '0' && std::isdigit(static_cast<unsigned char>(s[1])))
      hint = " (a leading zero reads as octal in YAML 1.1: write it without the zero)";
    else if (s.size() > 1 && s[0] == '0' && std::isalpha(static_cast<unsigned char>(s[1])))
      hint = " (write it in decimal)";
    fail(n, "'" + key + "' must be an integer, got '" + terminal_text(s) + "'" + hint);
  }
  errno = 0;
  const long long v = std::strtoll(s.c_str(), nullptr, is_hex ? 16 : 10);
  if (errno == ERANGE || v < lo || v > hi)
    fail(n, "'" + key + "' = " + s + " is out of range [" + std::to_string(lo) + ", " +
                std::to_string(hi) + "]");
  return v;
}

double ConfigReader::number(const YAML::Node& n, const std::string& key, double lo, double hi) {
  const std::string s = scalar(n, key);
  // strtod also reads hex floats, "inf" and "nan": only decimal notation here.
  const bool decimal_chars = !s.empty() && std::all_of(s.begin(), s.end(), [](unsigned char c) {
    return std::isdigit(c) != 0 || c == '.' || c == '-' || c == '+' || c == 'e' || c == 'E';
  });
  char* end = nullptr;
  errno = 0;
  const double v = decimal_chars ? std::strtod(s.c_str(), &end) : NAN;
  if (!decimal_chars || end != s.c_str() + s.size() || !std::isfinite(v))
    fail(n, "'" + key + "' must be a number, got '" + s + "'");
  // 1e-400 underflows: strtod gives 0 (or a denormal) and ERANGE.
  if (errno == ERANGE)
    fail(n, "'" + key + "' = " + s + " is too small for a double (it would read as " +
                fmt("%g", v) + "); write 0 or a number above 1e-300");
  const size_t start = (s[0] == '-' || s[0] == '+') ? 1 : 0;
  if (s.size() > start + 1 && s[start] == '0' &&
      std::isdigit(static_cast<unsigned char>(s[start + 1])))
    fail(n, "'" + key + "' = " + s +
                ": a leading zero reads as octal in YAML 1.1; write it without the zero");
  if (v < lo || v > hi)
    fail(n, "'" + key + "' = " + s + " is out of range [" + fmt("%g", lo) + ", " + fmt("%g", hi) +
                "]");
  return v;
}

bool ConfigReader::boolean(const YAML::Node& n, const std::string& key) {
  const std::string s = scalar(n, key);
  if (s == "true" || s == "True" || s == "yes" || s == "on") return true;
  if (s == "false" || s == "False" || s == "no" || s == "off") return false;
  fail(n, "'" + key + "' must be true or false, got '" + s + "'");
}

std::string ConfigReader::one_of(const YAML::Node& n, const std::string& key,
                                 const std::vector<std::string>& allowed) {
  const std::string s = scalar(n, key);
  if (std::find(allowed.begin(), allowed.end(), s) == allowed.end())
    fail(n,
         "'" + key + "' = '" + s + "' is not valid (expected one of: " + join_names(allowed) + ")");
  return s;
}

std::vector<std::string> ConfigReader::string_list(const YAML::Node& n, const std::string& key) {
  if (!n.IsSequence()) fail(n, "'" + key + "' must be a list, e.g. [a, b]");
  std::vector<std::string> out;
  std::set<std::string> seen;
  for (const YAML::Node& item : n) {
    guard([&] {
      const std::string s = scalar(item, key);
      if (!seen.insert(s).second)
        fail(item, "'" + key + "' lists '" + s + "' twice: remove the repeat");
      out.push_back(s);
    });
  }
  return out;
}

std::vector<int64_t> ConfigReader::integer_list(const YAML::Node& n, const std::string& key,
                                                int64_t lo, int64_t hi) {
  if (!n.IsSequence()) fail(n, "'" + key + "' must be a list of integers, e.g. [1, 2]");
  std::vector<int64_t> out;
  std::set<int64_t> seen;
  for (const YAML::Node& item : n) {
    guard([&] {
      const int64_t v = integer(item, key, lo, hi);
      if (!seen.insert(v).second)
        fail(item, "'" + key + "' lists " + std::to_string(v) + " twice: remove the repeat");
      out.push_back(v);
    });
  }
  return out;
}

}  // namespace edp::bench
