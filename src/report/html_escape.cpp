#include "report/html_escape.h"

#include <cstdio>

#include "common/text.h"

namespace edp::report {

std::string html_escape(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    // A bidirectional control in a name from a file would show the page's
    // text after it reordered (Trojan Source): shown as \uNNNN instead.
    char32_t bidi = 0;
    if (const std::size_t n = bidi_control_at(text, i, &bidi); n > 0) {
      char buf[12];
      std::snprintf(buf, sizeof buf, "\\u%04X", static_cast<unsigned>(bidi));
      out += buf;
      i += n - 1;
      continue;
    }
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

}  // namespace edp::report
