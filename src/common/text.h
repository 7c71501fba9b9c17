// The one number formatter and the one join of the code base (issue 22.6):
// fmt takes the printf format first, as snprintf does ("%.3g s", 1.5).
#pragma once

#include <cstddef>
#include <string>
#include <type_traits>
#include <vector>

namespace edp {

// One number through a printf format with one conversion ("%.4g", "%.1f W").
std::string fmt(const char* format, double v);

// `s` with A-Z as a-z and every other byte as it was (names from sysfs and
// device trees; not a locale's lower case).
std::string ascii_lower(std::string s);

// The items with `sep` between each two.
std::string join(const std::vector<std::string>& items, const std::string& sep = ", ");
// Why `text` cannot be a label: a name written into CSV cells, JSON and a
// terminal (a config's name, a size or operating point name, measure
// --label). Empty, longer than `max_bytes`, a control character (C0, DEL
// or C1: ESC or CSI would drive the terminal that prints it), a
// bidirectional control (bidi_control_at: shows what follows reordered) or
// invalid UTF-8; "" when it
// can be one. The reason reads after the label's name: "'name' contains ...".
std::string label_problem(const std::string& text, std::size_t max_bytes = 200);

// `text` made safe to print on a terminal: C0 controls, DEL, the C1 controls
// (0x80-0x9F as bytes, and U+0080-U+009F encoded in UTF-8) and bytes that are
// not valid UTF-8 shown as \xNN, the bidirectional controls
// (bidi_control_at) as \uNNNN, so that text from a file (a workload name in
// results.csv, a value in context.json or a state file, a key in a config)
// cannot move the cursor, retitle the window, recolour the output (ECMA-48
// escape and control sequences start with ESC 0x1B or a C1 control) or show
// itself in another order than it is written. Valid
// UTF-8 text is kept; a newline too when `keep_newlines` (a message of several
// lines). CSV and JSON outputs are escaped by their own format instead.
std::string terminal_text(const std::string& text, bool keep_newlines = false);

// The length in bytes of the bidirectional formatting character that starts
// at text[i] (U+202A-U+202E, U+2066-U+2069, U+200E, U+200F, U+061C: the
// twelve of Unicode UAX #9 that CVE-2021-42574 names), else 0; its code point
// in *cp. What terminal_text and the HTML report show as \uNNNN instead of
// obeying, and label_problem refuses.
std::size_t bidi_control_at(const std::string& text, std::size_t i, char32_t* cp = nullptr);

// One CSV field (RFC 4180), safe to open in a spreadsheet: a text cell that
// starts with =, +, -, @, a tab or a CR (a formula to Excel, LibreOffice and
// Google Sheets: "CSV injection", OWASP) or with an apostrophe gets one
// leading apostrophe and quotes, so the spreadsheet shows it as text. A cell
// that is a number ("-0.5", "-inf") is never changed. Readers of our own
// files (report::parse_csv) drop that apostrophe from a quoted field, so
// every cell reads back as it was written.
std::string csv_field(const std::string& cell);

// The same for integers (CPU numbers, frequencies in kHz).
template <class Int, class = std::enable_if_t<std::is_integral_v<Int>>>
std::string join(const std::vector<Int>& items, const std::string& sep = ", ") {
  std::vector<std::string> text;
  text.reserve(items.size());
  for (Int x : items) text.push_back(std::to_string(x));
  return join(text, sep);
}

}  // namespace edp
