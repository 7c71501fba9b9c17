// RFC 4180 CSV: writing with quoting where needed, and reading a whole file
// into a header + rows table (quoted fields, embedded commas, quotes and
// newlines, CRLF or LF).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace edp::report {

// Quotes a field when it contains a comma, quote, CR or LF, and guards a
// text cell a spreadsheet would run as a formula (common/text.h csv_field).
std::string csv_escape(const std::string& field);
std::string csv_line(const std::vector<std::string>& fields);  // ends in "\r\n"

struct CsvTable {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  // The line each row starts on in the file parse_csv read (a quoted field
  // may hold line breaks); empty for a table built in memory.
  std::vector<size_t> lines;
  // Row r's line: from `lines` while they match the rows, else r + 2 (the
  // header on line 1).
  size_t line_of(size_t r) const;

  // Index of a column, or -1.
  int column(const std::string& name) const;
  // Field of row r in column `name`; empty when the column is missing.
  std::string get(size_t r, const std::string& name) const;
};

// What parse_csv holds in memory, beside the reader's byte cap: fields in
// one record (results.csv has under 100 columns), records in a file (100 000
// runs of 8 rails in rails.csv are 800 000) and fields in a file (those rails
// rows at 10 columns: 8 million). Each empty field costs 32 bytes, so the
// worst file costs about 0.3 GB, where 64 MiB of commas would have taken some 8 GB.
inline constexpr size_t kCsvMaxFields = 1024;
inline constexpr size_t kCsvMaxRecords = 1000000;
inline constexpr size_t kCsvMaxCells = 8u << 20;

// Throws std::runtime_error with file and line on malformed input (an
// unterminated quote, a row with the wrong number of fields, a header that
// names a column twice, more than the caps above). A quoted field that
// starts with an apostrophe loses it (csv_escape's guard); a UTF-8
// byte-order mark before the header (a spreadsheet's "CSV UTF-8") is dropped.
CsvTable parse_csv(const std::string& text, const std::string& origin = "<csv>");
// The fields of one record (a line of samples.csv read on its own), with
// parse_csv's rules but no header's.
std::vector<std::string> parse_csv_record(const std::string& text,
                                          const std::string& origin = "<csv>");
// Through read_untrusted_file (common/safe_file.h): a link, FIFO, device or a
// file over the results cap is a UsageError before anything is read.
CsvTable read_csv_file(const std::string& path);

// Formats a double with enough digits to round-trip ("%.9g"); NaN -> "".
std::string fmt_double(double v);
// A decimal number ("1.5", "-2e-3"), else nullopt: no blanks, hex, "nan" or
// "inf", nothing past the number, nothing out of a double's range.
std::optional<double> parse_double(const std::string& s);
// The range a number cell of an output file may hold. number_problem says
// what is wrong with a cell against it ("" when nothing; an empty cell is
// "not measured", never a problem): not a decimal number (parse_double),
// below zero where the column cannot be, a magnitude above max_magnitude,
// or a magnitude other than 0 below min_magnitude (a measured quantity no
// instrument resolves: 1e-300 W).
struct NumberRange {
  bool may_be_negative = false;
  double min_magnitude = 0;
  double max_magnitude = 1e300;
};
std::string number_problem(const std::string& cell, const NumberRange& range);

// A whole, non-negative count (runs, N) from a field, else nullopt: the field
// must be a finite integer no larger than 2^53, so a corrupt or hostile CSV
// cannot overflow the integer it is converted to.
std::optional<int64_t> parse_count(const std::string& s);

}  // namespace edp::report
