#include "report/csv.h"

#include "common/safe_file.h"
#include "common/text.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <stdexcept>

namespace edp::report {

std::string csv_escape(const std::string& field) { return csv_field(field); }

std::string csv_line(const std::vector<std::string>& fields) {
  std::string out;
  for (size_t i = 0; i < fields.size(); ++i) {
    if (i) out += ',';
    out += csv_escape(fields[i]);
  }
  out += "\r\n";  // RFC 4180 line break
  return out;
}

int CsvTable::column(const std::string& name) const {
  for (size_t i = 0; i < header.size(); ++i)
    if (header[i] == name) return static_cast<int>(i);
  return -1;
}

size_t CsvTable::line_of(size_t r) const {
  return lines.size() == rows.size() && r < lines.size() ? lines[r] : r + 2;
}

std::string CsvTable::get(size_t r, const std::string& name) const {
  const int c = column(name);
  if (c < 0 || r >= rows.size() || static_cast<size_t>(c) >= rows[r].size()) return {};
  return rows[r][static_cast<size_t>(c)];
}

namespace {

// `lines`, when given, gets the line each record starts on.
std::vector<std::vector<std::string>> parse_records(const std::string& text,
                                                    const std::string& origin,
                                                    std::vector<size_t>* lines = nullptr) {
  // Bytes are capped by the reader (file_kind::results_csv); memory is not
  // proportional to them: an empty field costs a std::string (32 bytes) for
  // one byte of text. 8 MiB of commas took 957 MB. So fields, records and
  // cells are capped too, well above our largest honest files.
  const std::string fix = "; this is not a file edpbench wrote (split a larger sweep)";
  std::vector<std::vector<std::string>> records;
  size_t cells = 0;
  std::vector<std::string> record;
  std::string field;
  bool quoted = false, field_started = false, was_quoted = false;
  size_t line = 1, record_line = 1;
  auto end_field = [&] {
    // csv_field's spreadsheet guard: a quoted field's leading apostrophe.
    if (was_quoted && !field.empty() && field[0] == '\'') field.erase(0, 1);
    if (record.size() >= kCsvMaxFields)
      throw std::runtime_error(origin + ":" + std::to_string(record_line) + ": more than " +
                               std::to_string(kCsvMaxFields) + " fields in one record (the limit)" +
                               fix);
    if (++cells > kCsvMaxCells)
      throw std::runtime_error(origin + ":" + std::to_string(record_line) + ": more than " +
                               std::to_string(kCsvMaxCells) + " fields in the file (the limit)" +
                               fix);
    record.push_back(field);
    field.clear();
    field_started = was_quoted = false;
  };
  auto end_record = [&] {
    end_field();
    if (!(record.size() == 1 && record[0].empty())) {
      if (records.size() >= kCsvMaxRecords)
        throw std::runtime_error(origin + ":" + std::to_string(record_line) + ": more than " +
                                 std::to_string(kCsvMaxRecords) + " records (the limit)" + fix);
      records.push_back(record);
      if (lines) lines->push_back(record_line);
    }
    record.clear();
    record_line = line;
  };
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"') {
        if (i + 1 < text.size() && text[i + 1] == '"') {
          field += '"';
          ++i;
        } else {
          quoted = false;
        }
      } else {
        if (c == '\n') ++line;
        field += c;
      }
      continue;
    }
    if (c == '"' && !field_started) {
      quoted = field_started = was_quoted = true;
    } else if (c == ',') {
      end_field();
    } else if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') {
      continue;
    } else if (c == '\n') {
      ++line;
      end_record();
    } else {
      field += c;
      field_started = true;
    }
  }
  if (quoted)
    throw std::runtime_error(origin + ":" + std::to_string(record_line) +
                             ": unterminated quoted field");
  if (!field.empty() || !record.empty()) end_record();
  return records;
}

}  // namespace

CsvTable parse_csv(const std::string& text, const std::string& origin) {
  constexpr char kBom[] = "\xEF\xBB\xBF";
  std::vector<size_t> lines;
  std::vector<std::vector<std::string>> records =
      text.compare(0, 3, kBom) == 0 ? parse_records(text.substr(3), origin, &lines)
                                    : parse_records(text, origin, &lines);
  CsvTable t;
  if (records.empty()) return t;
  t.lines.assign(lines.begin() + 1, lines.end());
  t.header = records.front();
  // A column named twice: every reader would take the first and drop the
  // other without a word. (Unnamed columns are read by no one.)
  std::map<std::string, size_t> seen;
  for (size_t i = 0; i < t.header.size(); ++i)
    if (const auto [at, fresh] = seen.emplace(t.header[i], i); !fresh && !t.header[i].empty())
      throw std::runtime_error(origin + ":1: the header names column '" + t.header[i] +
                               "' twice (fields " + std::to_string(at->second + 1) + " and " +
                               std::to_string(i + 1) +
                               "): remove or rename one; edpbench writes each column once");
  for (size_t r = 1; r < records.size(); ++r) {
    if (records[r].size() != t.header.size())
      throw std::runtime_error(origin + ": row " + std::to_string(r + 1) + " has " +
                               std::to_string(records[r].size()) + " fields, the header has " +
                               std::to_string(t.header.size()));
    t.rows.push_back(std::move(records[r]));
  }
  return t;
}

std::vector<std::string> parse_csv_record(const std::string& text, const std::string& origin) {
  std::vector<std::vector<std::string>> records = parse_records(text, origin);
  if (records.size() > 1)
    throw std::runtime_error(origin + ": one record expected, " + std::to_string(records.size()) +
                             " found");
  return records.empty() ? std::vector<std::string>{} : std::move(records.front());
}

CsvTable read_csv_file(const std::string& path) {
  return parse_csv(read_untrusted_file(path, file_kind::results_csv), path);
}

std::string fmt_double(double v) {
  if (std::isnan(v)) return "";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

std::optional<double> parse_double(const std::string& s) {
  // Decimal only, as edpbench writes numbers (and as trace files are read):
  // strtod alone also takes blanks, hex ("0x1p-3"), "nan" and "inf".
  if (s.empty() || s.find_first_not_of("0123456789+-.eE") != std::string::npos) return std::nullopt;
  errno = 0;
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size() || errno == ERANGE) return std::nullopt;
  return v;
}

std::string number_problem(const std::string& cell, const NumberRange& range) {
  if (cell.empty()) return "";
  const auto v = parse_double(cell);
  if (!v) return "not a decimal number within a double's range";
  if (*v < 0 && !range.may_be_negative) return "below zero";
  if (std::fabs(*v) > range.max_magnitude) return "larger than " + fmt_double(range.max_magnitude);
  if (*v != 0 && std::fabs(*v) < range.min_magnitude)
    return "smaller than " + fmt_double(range.min_magnitude) + " but not 0";
  return "";
}

std::optional<int64_t> parse_count(const std::string& s) {
  const auto v = parse_double(s);
  constexpr double kMaxExact = 9007199254740992.0;  // 2^53
  if (!v || !(*v >= 0 && *v <= kMaxExact) || std::floor(*v) != *v) return std::nullopt;
  return static_cast<int64_t>(*v);
}

}  // namespace edp::report
