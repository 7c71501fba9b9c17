// The rows of results.csv, runs.csv and rails.csv (DESIGN §5). The column
// lists are the contract: the required columns come first, in order, and
// extra columns only ever follow them.
#pragma once

#include <string>
#include <vector>

#include "report/records.h"

namespace edp::report {

// Each file's columns are one table of {name, value} entries (csv_schema.h)
// in results_csv.cpp; these are its names. required_*: the columns DESIGN §5
// requires, in order (what readers may rely on); *_columns: the required
// columns followed by the extras this version writes.
const std::vector<std::string>& required_result_columns();
const std::vector<std::string>& results_columns();
const std::vector<std::string>& required_runs_columns();
const std::vector<std::string>& runs_columns();
const std::vector<std::string>& required_rails_columns();
const std::vector<std::string>& rails_columns();

// One results.csv row: statistics over the runs (mean, std, 95% CI, median,
// min) of time, energy, dynamic energy and EDP (EDP averaged per run).
// The MLP shape and GEMM GFLOP per iteration come from the item's values
// (n, d_in, h, d_out, gflop_per_iteration: what the mlp and batch studies
// record with their items).
std::vector<std::string> results_row(const ItemRecord& rec, const PartRecord& c);
std::vector<std::vector<std::string>> runs_rows(const PartRecord& c);
// One runs.csv row: run r of part c (measure writes its runs with it).
std::vector<std::string> runs_row(const PartRecord& c, const RunRecord& r);
std::vector<std::vector<std::string>> rails_rows(const PartRecord& c);

}  // namespace edp::report
