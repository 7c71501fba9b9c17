// Number formatting and joining (see text.h).
#include "common/text.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace edp {

std::string fmt(const char* format, double v) {
  char buf[128];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

std::string ascii_lower(std::string s) {
  for (auto& c : s)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return s;
}

std::string join(const std::vector<std::string>& items, const std::string& sep) {
  std::string out;
  for (size_t i = 0; i < items.size(); ++i) out += (i ? sep : "") + items[i];
  return out;
}

namespace {
// The length of the UTF-8 sequence at text[i], or 0 when it is not one
// (RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF).
std::size_t utf8_length(const std::string& text, std::size_t i) {
  const auto b = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char c = b(i);
  if (c < 0x80) return 1;
  std::size_t n = 0;
  unsigned char lo = 0x80, hi = 0xBF;  // the second byte's range
  if (c >= 0xC2 && c <= 0xDF) {
    n = 2;
  } else if (c >= 0xE0 && c <= 0xEF) {
    n = 3;
    if (c == 0xE0) lo = 0xA0;
    if (c == 0xED) hi = 0x9F;
  } else if (c >= 0xF0 && c <= 0xF4) {
    n = 4;
    if (c == 0xF0) lo = 0x90;
    if (c == 0xF4) hi = 0x8F;
  } else {
    return 0;
  }
  if (i + n > text.size() || b(i + 1) < lo || b(i + 1) > hi) return 0;
  for (std::size_t k = 2; k < n; ++k)
    if (b(i + k) < 0x80 || b(i + k) > 0xBF) return 0;
  return n;
}

// The Unicode code point of the valid `n`-byte UTF-8 sequence at text[i].
char32_t code_point(const std::string& text, std::size_t i, std::size_t n) {
  const auto b = [&](std::size_t k) { return static_cast<unsigned char>(text[i + k]); };
  if (n == 1) return b(0);
  char32_t cp = b(0) & (0xFF >> (n + 1));
  for (std::size_t k = 1; k < n; ++k) cp = (cp << 6) | (b(k) & 0x3F);
  return cp;
}

// The bidirectional formatting characters (Unicode UAX #9, section 2: the
// embeddings, overrides and isolates LRE, RLE, PDF, LRO, RLO, LRI, RLI, FSI,
// PDI, and the implicit marks LRM, RLM, ALM): text after one is shown
// reordered, so `evil\u202Etxt.exe` prints as `evilexe.txt` ("Trojan
// Source", CVE-2021-42574, which lists all twelve). A terminal or a browser
// obeys them.
bool bidi_control(char32_t cp) {
  return (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069) || cp == 0x200E ||
         cp == 0x200F || cp == 0x061C;
}

// Whether the valid `n`-byte UTF-8 sequence at text[i] is a C1 control
// (U+0080-U+009F: C2 80 to C2 9F; CSI is U+009B).
bool c1_control(const std::string& text, std::size_t i, std::size_t n) {
  return n == 2 && static_cast<unsigned char>(text[i]) == 0xC2 &&
         static_cast<unsigned char>(text[i + 1]) <= 0x9F;
}
}  // namespace

std::size_t bidi_control_at(const std::string& text, std::size_t i, char32_t* cp) {
  const std::size_t n = i < text.size() ? utf8_length(text, i) : 0;
  if (n < 2 || !bidi_control(code_point(text, i, n))) return 0;
  if (cp) *cp = code_point(text, i, n);
  return n;
}

std::string csv_field(const std::string& cell) {
  std::string text = cell;
  if (!cell.empty() && std::strchr("=+-@\t\r'", cell[0]) != nullptr) {
    // A number ("-0.5", "+1e3", "-inf") starts with its sign (strtod would
    // also skip a leading tab).
    char* end = nullptr;
    const bool sign = cell[0] == '-' || cell[0] == '+';
    if (sign) std::strtod(cell.c_str(), &end);
    const bool number = sign && end == cell.c_str() + cell.size();
    if (!number) text = "'" + cell;
  }
  const bool guarded = text.size() != cell.size();
  if (!guarded && text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
  return out;
}

std::string terminal_text(const std::string& text, bool keep_newlines) {
  std::string out;
  out.reserve(text.size());
  auto escape = [&](unsigned char c) {
    char buf[8];
    std::snprintf(buf, sizeof buf, "\\x%02x", c);
    out += buf;
  };
  for (std::size_t i = 0; i < text.size();) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c == '\n' && keep_newlines) {
      out += '\n';
      ++i;
      continue;
    }
    if (c < 0x20 || c == 0x7f) {
      escape(c);
      ++i;
      continue;
    }
    const std::size_t n = utf8_length(text, i);
    if (n == 0) {
      escape(c);
      ++i;
    } else if (c1_control(text, i, n)) {
      // U+0080-U+009F: the C1 controls (CSI is U+009B).
      escape(c);
      escape(static_cast<unsigned char>(text[i + 1]));
      i += 2;
    } else if (char32_t bidi = 0; bidi_control_at(text, i, &bidi) > 0) {
      char buf[12];
      std::snprintf(buf, sizeof buf, "\\u%04X", static_cast<unsigned>(bidi));
      out += buf;
      i += n;
    } else {
      out.append(text, i, n);
      i += n;
    }
  }
  return out;
}

std::string label_problem(const std::string& text, std::size_t max_bytes) {
  if (text.empty()) return "is empty";
  if (text.size() > max_bytes)
    return "is " + std::to_string(text.size()) + " bytes long; at most " +
           std::to_string(max_bytes) + " are allowed";
  for (std::size_t i = 0; i < text.size();) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c < 0x20 || c == 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "0x%02x", c);
      return std::string("contains a control character (") + buf + " at byte " +
             std::to_string(i + 1) + "); use letters, digits, '_' or '-'";
    }
    const std::size_t n = utf8_length(text, i);
    if (n == 0) return "is not valid UTF-8 (byte " + std::to_string(i + 1) + ")";
    if (c1_control(text, i, n)) {
      // U+0080-U+009F: the C1 controls (U+009B is CSI, ESC [ in one character).
      char buf[8];
      std::snprintf(buf, sizeof buf, "U+%04X", static_cast<unsigned>(code_point(text, i, n)));
      return std::string("contains a control character (") + buf + " at byte " +
             std::to_string(i + 1) + "); use letters, digits, '_' or '-'";
    }
    if (bidi_control(code_point(text, i, n))) {
      char buf[12];
      std::snprintf(buf, sizeof buf, "U+%04X", static_cast<unsigned>(code_point(text, i, n)));
      return std::string("contains a bidirectional control (") + buf + " at byte " +
             std::to_string(i + 1) + "), which shows the text after it reordered; remove it";
    }
    i += n;
  }
  return "";
}

}  // namespace edp
