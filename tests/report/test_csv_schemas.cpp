// Each CSV's columns are one table of {name, value} entries (issue 22.3):
// the headers begin with the columns DESIGN §5 and §9 require, in their
// order, and a value lands under its own name. The required lists below are
// copied from DESIGN.md (shared/DESIGN.md is not part of the repository).
#include <catch2/catch.hpp>

#include <algorithm>
#include <set>
#include <sstream>

#include "report/columns.h"
#include "report/csv_schema.h"
#include "report/ops_csv.h"
#include "report/results_csv.h"
#include "report/stages_csv.h"

namespace {

using namespace edp::report;

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  std::string f;
  while (std::getline(ss, f, ',')) out.push_back(f);
  return out;
}

std::vector<std::string> prefix(const std::vector<std::string>& v, size_t n) {
  return {v.begin(), v.begin() + static_cast<long>(std::min(n, v.size()))};
}

std::string at(const std::vector<std::string>& row, const std::vector<std::string>& cols,
               const std::string& name) {
  REQUIRE(row.size() == cols.size());
  for (size_t i = 0; i < cols.size(); ++i)
    if (cols[i] == name) return row[i];
  FAIL("no column " << name);
  return "";
}

}  // namespace

TEST_CASE("csv schemas: each header begins with the DESIGN's required columns", "[report][csv]") {
  // DESIGN §5
  const auto results = split(
      "workload,size,n,d_in,h,d_out,device,threads,iterations,runs,status,time_s_mean,time_s_std,"
      "time_s_ci95,energy_j_mean,energy_j_std,energy_j_ci95,dynamic_energy_j_mean,power_w_mean,"
      "edp_js_mean,edp_js_std,power_source,energy_rails,samples_per_run,final_loss,diverged,note");
  const auto runs = split(
      "workload,size,device,run,time_s,energy_j,dynamic_energy_j,edp_js,power_w_mean,samples,"
      "final_loss,start_unix_s,end_unix_s,start_monotonic_s,end_monotonic_s,update_interval_s,"
      "distinct_values,largest_gap_s,lag_correction_s,read_failures,missed_deadlines,"
      "low_confidence");
  const auto rails = split("workload,size,device,run,rail,energy_j,power_w_mean");
  // DESIGN §9.1, §9.3
  const auto ops = split(
      "op,bytes,n,device,threads,runs,status,time_s_median,time_s_ci95,flop,bytes_moved,gflops,"
      "gbs,peak_gflops,peak_gbs,percent_of_peak,bound,energy_per_op_j,pj_per_flop,power_w_mean,"
      "note");
  const auto stages =
      split("workload,size,device,stage,time_s,share,energy_j,gflops,compute_efficiency,note");
  const auto memory = split("workload,size,device,tensor,kind,bytes_computed,bytes_measured");

  CHECK(required_result_columns() == results);
  CHECK(prefix(results_columns(), results.size()) == results);
  CHECK(required_runs_columns() == runs);
  CHECK(prefix(runs_columns(), runs.size()) == runs);
  CHECK(required_rails_columns() == rails);
  CHECK(prefix(rails_columns(), rails.size()) == rails);
  CHECK(ops_required_columns() == ops);
  CHECK(prefix(ops_columns(), ops.size()) == ops);
  CHECK(required_stages_columns() == stages);
  CHECK(prefix(stages_columns(), stages.size()) == stages);
  CHECK(required_memory_columns() == memory);
  CHECK(prefix(memory_columns(), memory.size()) == memory);
  // DESIGN §5 fixes these results.csv extras by name too.
  for (const char* fixed :
       {"baseline_w", "time_per_sample_s_mean", "energy_per_sample_j_mean", "operating_point"})
    CHECK(std::count(results_columns().begin(), results_columns().end(), fixed) == 1);
}

TEST_CASE("csv schemas: every value lands under its own name", "[report][csv]") {
  PartRecord c;
  c.workload = "tensors";
  c.size = "small";
  c.device = "cpu";
  c.iterations = 10;
  c.baseline_w = 2.5;
  c.operating_point = "MAXN";
  c.key = "mlp:workload=tensors";
  RunRecord r;
  r.run = 1;
  r.time_s = 2.0;
  r.energy_j = 8.0;
  r.power_w_mean = 4.0;
  r.edp_js = 16.0;
  r.start_unix_s = 1700000000.25;
  r.start_gpu_mhz = 1300.5;
  r.rails = {{"VDD_IN", 8.0, 4.0}};
  c.run_records = {r};

  ItemRecord item;
  item.values["n"] = 64;
  const auto row = results_row(item, c);
  const auto& cols = results_columns();
  CHECK(at(row, cols, "workload") == "tensors");
  CHECK(at(row, cols, "n") == "64");
  CHECK(at(row, cols, "time_s_mean") == "2");
  CHECK(at(row, cols, "energy_j_mean") == "8");
  CHECK(at(row, cols, "edp_js_mean") == "16");
  CHECK(at(row, cols, "baseline_w") == "2.5");
  CHECK(at(row, cols, "energy_per_sample_j_mean") == "0.0125");  // 8 J / (64 x 10)
  CHECK(at(row, cols, "operating_point") == "MAXN");
  CHECK(at(row, cols, "key") == "mlp:workload=tensors");

  const auto runs = runs_rows(c);
  REQUIRE(runs.size() == 1);
  CHECK(at(runs[0], runs_columns(), "start_unix_s") == "1700000000.250000");
  CHECK(at(runs[0], runs_columns(), "start_gpu_mhz") == "1300.5");
  CHECK(at(runs[0], runs_columns(), "power_w_mean") == "4");
  const auto rails = rails_rows(c);
  REQUIRE(rails.size() == 1);
  CHECK(at(rails[0], rails_columns(), "rail") == "VDD_IN");
  CHECK(at(rails[0], rails_columns(), "energy_j") == "8");
}

TEST_CASE("csv schemas: a column named twice is refused", "[report][csv]") {
  using S = CsvSchema<int>;
  auto v = [](const int& x) { return std::to_string(x); };
  CHECK_THROWS_WITH((S{{{"a", v}}, {{"b", v}, {"a", v}}}), Catch::Contains("'a' twice"));
  const S ok{{{"a", v}}, {{"b", [](const int& x) { return std::to_string(2 * x); }}}};
  CHECK(ok.required_names() == std::vector<std::string>{"a"});
  CHECK(ok.row(3) == std::vector<std::string>{"3", "6"});
}

TEST_CASE("the readers' column names are the writers' columns, every one and no other",
          "[csv][record]") {
  // Readers ask for columns by report/columns.h's constants; the schemas name
  // their columns with the same constants. Both sets must be the same.
  std::set<std::string> written;
  for (const auto* columns : {&edp::report::results_columns(), &edp::report::runs_columns(),
                              &edp::report::rails_columns(), &edp::report::ops_columns(),
                              &edp::report::stages_columns(), &edp::report::memory_columns()})
    written.insert(columns->begin(), columns->end());
  const auto& all = edp::report::col::all();
  const std::set<std::string> constants(all.begin(), all.end());
  CHECK(constants.size() == all.size());  // no name twice
  for (const auto& name : written) {
    INFO(name << " is written but has no constant in report/columns.h");
    CHECK(constants.count(name) == 1);
  }
  for (const auto& name : constants) {
    INFO(name << " has a constant in report/columns.h but no writer");
    CHECK(written.count(name) == 1);
  }
}
