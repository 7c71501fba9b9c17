// --resume reads the files of an earlier run by column name (issue 22.3): the
// order of its columns does not matter, a column this version added stays
// empty in the old rows, and a column this version would drop is an error.
#include <catch2/catch.hpp>

#include <algorithm>

#include "bench/sweep/results_store.h"
#include "common/errors.h"
#include "report/csv.h"
#include "report/results_csv.h"
#include "support/process.h"

namespace {

using namespace edp;

// A results.csv with `header`, one row per key, the row's time_s_mean = 1.5.
std::string results_text(const std::vector<std::string>& header,
                         const std::vector<std::string>& keys) {
  std::string out = report::csv_line(header);
  for (const auto& k : keys) {
    std::vector<std::string> row;
    for (const auto& c : header)
      row.push_back(c == "key"           ? k
                    : c == "status"      ? "ok"
                    : c == "time_s_mean" ? "1.5"
                    : c == "runs"        ? "1"
                    : c == "workload"    ? "tensors"
                                         : "");
    out += report::csv_line(row);
  }
  return out;
}

// What resume checks the results against (issue 33): each committed key's one
// run in runs.csv, and a context.json.
void write_runs_and_context(const std::string& dir, const std::vector<std::string>& keys) {
  std::string runs = report::csv_line(report::runs_columns());
  for (const auto& k : keys) {
    std::vector<std::string> row;
    for (const auto& c : report::runs_columns())
      row.push_back(c == "key" ? k : c == "workload" ? "tensors" : c == "run" ? "1" : "");
    runs += report::csv_line(row);
  }
  testing::write_text(dir + "/runs.csv", runs);
  testing::write_text(dir + "/context.json", "{}\n");
}

}  // namespace

TEST_CASE("resume: an earlier results.csv is read by column name, not position",
          "[bench][resume]") {
  const std::string dir = testing::temp_dir("store");
  const std::string cfg = "name: t\n";
  testing::write_text(dir + "/config.yaml", cfg);
  // Reversed order, and without stop_reason (as if an older version wrote it).
  std::vector<std::string> header = report::results_columns();
  std::reverse(header.begin(), header.end());
  header.erase(std::find(header.begin(), header.end(), "stop_reason"));
  testing::write_text(dir + "/results.csv", results_text(header, {"mlp:a", "mlp:b"}));
  write_runs_and_context(dir, {"mlp:a", "mlp:b"});

  bench::ResultsStore store(dir, cfg, true);
  CHECK(store.done("mlp:a"));
  CHECK(store.done("mlp:b"));
  CHECK_FALSE(store.done("mlp:c"));
  store.flush("{}");
  const report::CsvTable t = report::read_csv_file(dir + "/results.csv");
  CHECK(t.header == report::results_columns());
  REQUIRE(t.rows.size() == 2);
  CHECK(t.get(0, "key") == "mlp:a");
  CHECK(t.get(0, "time_s_mean") == "1.5");
  CHECK(t.get(0, "stop_reason").empty());
}

TEST_CASE("resume: a column this version does not write is refused, naming it", "[bench][resume]") {
  const std::string dir = testing::temp_dir("store-extra");
  const std::string cfg = "name: t\n";
  testing::write_text(dir + "/config.yaml", cfg);
  std::vector<std::string> header = report::results_columns();
  header.push_back("watts_from_the_future");
  testing::write_text(dir + "/results.csv", results_text(header, {"mlp:a"}));
  CHECK_THROWS_WITH(bench::ResultsStore(dir, cfg, true),
                    Catch::Contains("watts_from_the_future") && Catch::Contains("new --out"));
}
