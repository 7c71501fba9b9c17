// One pivot for every section's tables (DESIGN §9, "Report"): a table per
// label, rows, columns, and mean ± 95% CI in each cell, formatted by the unit
// suffix of the column (`_s`, `_j`, `_w`, `_js`), like nvbench's hints. A
// section only picks the mapping: batch per size, N × device; ops per op,
// bytes × device.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "report/csv.h"

namespace edp::report {

struct PivotSpec {
  std::vector<std::string> label_columns;  // one table per distinct value, joined by "/"
  std::vector<std::string> row_columns;    // the row label, joined by " "
  std::string column_column;               // the columns: usually "device"
  std::string value_column;                // "time_per_sample_s_mean"
  std::string ci_column;                   // "time_per_sample_s_ci95"; "" when none
};

struct PivotCell {
  std::optional<double> mean, ci95;
  std::string status;  // the row's status ("ok", "failed", ...); "" when no status column
};

struct Pivot {
  std::string label;
  std::vector<std::string> rows, columns;  // in the order of first appearance
  std::map<std::pair<std::string, std::string>, PivotCell> cells;  // (row, column)
};

// The pivots of `table` (rows for which keep(r) is true, or all), in the
// order of first appearance. A second row for the same cell replaces an
// earlier one only when the earlier one is not ok.
std::vector<Pivot> make_pivots(const CsvTable& table, const PivotSpec& spec,
                               const std::vector<bool>& keep = {});

// The unit a column's name ends in, after a statistic suffix (_mean, _median,
// _ci95, _std, _min) is dropped: "s", "J", "W", "J·s"; "" when none.
std::string unit_of(const std::string& column);
// A value of `column` for people: "1.23 ms", "45.6 µJ", "7.1 W"; plain
// format_number when the column has no unit.
std::string format_quantity(double v, const std::string& column);
// "1.23 ms ± 0.04 ms", or the status ("failed") when there is no value.
std::string format_cell(const PivotCell& cell, const std::string& column);

// <table class="pivot"> with a caption row, `row_header` over the row labels.
std::string render_pivot_html(const Pivot& pivot, const PivotSpec& spec,
                              const std::string& row_header);

}  // namespace edp::report
