// samples.csv rows (see samples_csv.h).
#include "report/samples_csv.h"

#include "report/csv.h"

namespace edp::report {

const std::vector<std::string>& samples_columns() {
  static const std::vector<std::string> columns{"study", "key",  "workload", "run",
                                                "t_s",   "rail", "power_w",  "corrected_power_w"};
  return columns;
}

size_t samples_row_count(const WindowSamples& w) { return w.t_s.size() * w.rails.size(); }

std::vector<std::vector<std::string>> samples_rows(const WindowSamples& w) {
  std::vector<std::vector<std::string>> rows;
  rows.reserve(samples_row_count(w));
  const std::string run = std::to_string(w.run);
  for (size_t i = 0; i < w.t_s.size(); ++i) {
    const std::string t = fmt_double(w.t_s[i]);
    for (size_t r = 0; r < w.rails.size(); ++r)
      rows.push_back({w.study, w.key, w.workload, run, t, w.rails[r], fmt_double(w.power_w[r][i]),
                      fmt_double(w.corrected_w[r][i])});
  }
  return rows;
}

std::string samples_csv_text(const WindowSamples& w) {
  std::string text;
  for (const auto& row : samples_rows(w)) text += csv_line(row);
  return text;
}

}  // namespace edp::report
