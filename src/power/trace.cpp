// Trace replay (see trace.h).
#include "power/trace.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <sstream>

#include "common/errors.h"
#include "common/safe_file.h"
#include "common/text.h"
#include "power/clock.h"
#include "power/sysfs.h"

namespace edp::power {
namespace {

// The most one rail of a trace may draw. A Jetson module takes at most
// ~140 W (AGX Thor's rating), a server CPU package ~500 W; 10 kW is far above
// any rail edpbench measures and far below values that overflow an energy sum.
constexpr double kMaxTraceRailW = 10000;

std::vector<std::string> split_csv_line(const std::string& line) {
  std::vector<std::string> fields;
  std::string field;
  for (char ch : line) {
    if (ch == ',') {
      fields.push_back(field);
      field.clear();
    } else if (ch != '\r' && ch != ' ' && ch != '\t') {
      field.push_back(ch);
    }
  }
  fields.push_back(field);
  return fields;
}

bool parse_double(const std::string& s, double* out) {
  // Decimal notation only: strtod also reads hex ("0x10"), "inf" and "nan".
  if (s.empty() || s.find_first_not_of("0123456789.+-eE") != std::string::npos) return false;
  char* end = nullptr;
  *out = std::strtod(s.c_str(), &end);
  return end == s.c_str() + s.size() && std::isfinite(*out);
}

std::string format_time(double t) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.2f", t);
  std::string s = buf;
  while (s.size() > 1 && s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  return s;
}

}  // namespace

TraceData parse_trace(const std::string& text, const std::string& origin) {
  TraceData data;
  std::istringstream in(text);
  std::string line;
  size_t line_no = 0;
  bool header = false;
  double first_t = 0;
  while (std::getline(in, line)) {
    ++line_no;
    if (line.find_first_not_of(" \t\r") == std::string::npos || line[0] == '#') continue;
    auto fields = split_csv_line(line);
    const std::string where = origin + ":" + std::to_string(line_no) + ": ";
    if (!header) {
      if (fields.size() < 2 || fields[0] != "t_s")
        throw UsageError(where + "trace header must be t_s,<rail>_w,... (got '" +
                         escaped_excerpt(line) + "')");
      for (size_t i = 1; i < fields.size(); ++i) {
        const std::string& c = fields[i];
        if (c.size() < 3 || c.compare(c.size() - 2, 2, "_w") != 0)
          throw UsageError(where + "trace column '" + escaped_excerpt(c) +
                           "' must be <rail>_w (watts)");
        // The rail's name reaches the terminal, CSVs and context.json.
        const std::string problem = label_problem(c.substr(0, c.size() - 2));
        if (!problem.empty())
          throw UsageError(where + "trace column '" + escaped_excerpt(c) + "': the rail name " +
                           problem);
        if (std::find(data.columns.begin(), data.columns.end(), c) != data.columns.end())
          throw UsageError(where + "trace column '" + escaped_excerpt(c) +
                           "' is given twice; each rail has one column");
        data.columns.push_back(c);
        data.rails.push_back(c.substr(0, c.size() - 2));
      }
      header = true;
      continue;
    }
    if (fields.size() != data.columns.size() + 1)
      throw UsageError(where + "expected " + std::to_string(data.columns.size() + 1) +
                       " fields, got " + std::to_string(fields.size()));
    double t;
    if (!parse_double(fields[0], &t))
      throw UsageError(where + "t_s '" + escaped_excerpt(fields[0]) + "' is not a number");
    if (data.t_s.empty()) first_t = t;
    t -= first_t;
    if (!data.t_s.empty() && t <= data.t_s.back())
      throw UsageError(where + "t_s must increase from row to row");
    std::vector<double> row(data.columns.size(), std::numeric_limits<double>::quiet_NaN());
    for (size_t i = 0; i < row.size(); ++i) {
      const std::string& f = fields[i + 1];
      if (!f.empty() && !parse_double(f, &row[i]))
        throw UsageError(where + "value '" + escaped_excerpt(f) + "' of " + data.columns[i] +
                         " is not a number");
      if (row[i] < 0 || row[i] > kMaxTraceRailW)
        throw UsageError(where + "value '" + escaped_excerpt(f) + "' of " + data.columns[i] +
                         " is outside 0 to " + format_time(kMaxTraceRailW) +
                         " W (a rail's power; see docs/reliability.md)");
    }
    data.t_s.push_back(t);
    data.rows.push_back(std::move(row));
  }
  if (!header) throw UsageError(origin + ": empty trace (expected a t_s,<rail>_w,... header)");
  if (data.rows.empty()) throw UsageError(origin + ": trace has a header but no rows");
  return data;
}

TraceSensor::TraceSensor(TraceData data, bool loop, double start_s)
    : data_(std::move(data)), loop_(loop), start_s_(start_s) {
  // A trace is the true power at each of its timestamps: instantaneous.
  for (const auto& r : data_.rails)
    rails_.push_back({r, ValueKind::power_w, Timing::instantaneous});
  const size_t n = data_.t_s.size();
  if (n >= 2) {
    spacing_s_ = data_.t_s[n - 1] / static_cast<double>(n - 1);
    period_s_ = data_.t_s[n - 1] + (data_.t_s[n - 1] - data_.t_s[n - 2]);
  }
}

double TraceSensor::trace_time(double now) const {
  double t = std::max(0.0, now - start_s_);
  if (loop_ && period_s_ > 0) t = std::fmod(t, period_s_);
  return t;
}

size_t TraceSensor::row_at(double t) const {
  auto it = std::upper_bound(data_.t_s.begin(), data_.t_s.end(), t);
  return it == data_.t_s.begin() ? 0 : static_cast<size_t>(it - data_.t_s.begin()) - 1;
}

size_t TraceSensor::read(double* values, std::string* error) noexcept {
  const double t = trace_time(now_s());
  const auto& row = data_.rows[row_at(t)];
  size_t failed = 0;
  for (size_t i = 0; i < row.size(); ++i) {
    values[i] = row[i];
    if (std::isnan(row[i])) {
      if (failed == 0 && error) {
        try {
          *error = "trace: no value for " + data_.columns[i] + " at t=" + format_time(t) + " s";
        } catch (...) {
        }
      }
      ++failed;
    }
  }
  return failed;
}

std::unique_ptr<TraceSensor> open_trace(const std::string& path, bool loop,
                                        std::vector<std::string>* log) {
  if (path.empty()) throw UsageError("power source 'trace' needs a trace file (power.trace.file)");
  // Through the one reader of untrusted files: a link (`--trace` naming
  // /etc/shadow through one echoed its first line), a FIFO (hung measure,
  // sensors and the monitor) or /dev/zero (read until bad_alloc) is refused.
  const auto text = read_untrusted_file_if_present(path, file_kind::trace_csv);
  if (!text) throw UsageError("cannot read trace file " + path + " (power.trace.file)");
  TraceData data = parse_trace(*text, path);
  log->push_back("trace: replaying " + path + " (" + std::to_string(data.rows.size()) + " rows, " +
                 std::to_string(data.rails.size()) + " rails" + (loop ? ", looping)" : ")"));
  return std::make_unique<TraceSensor>(std::move(data), loop, now_s());
}

}  // namespace edp::power
