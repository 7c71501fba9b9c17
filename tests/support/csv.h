// Reading back the CSV files a command wrote, in the CLI tests.
#pragma once

#include <unistd.h>

#include <string>

#include "report/csv.h"

namespace edp::testing {

// The number in row `r`, column `c` (std::stod: throws when it is not one).
inline double num(const report::CsvTable& t, size_t r, const std::string& c) {
  return std::stod(t.get(r, c));
}

// The data rows of the CSV file at `path`; 0 when there is no such file.
inline size_t rows_in(const std::string& path) {
  if (::access(path.c_str(), F_OK) != 0) return 0;
  return report::read_csv_file(path).rows.size();
}

}  // namespace edp::testing
