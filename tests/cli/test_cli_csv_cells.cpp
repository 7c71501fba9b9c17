// Issue 33, item 8: labels such as =cmd|' -C calc'!A0, +SUM(1) and @x went
// unescaped into results.csv, recommend --csv and compare --csv, where a
// spreadsheet runs them. Every CSV edpbench writes now shows them as text,
// and edpbench reads its own files back unchanged (resume, recommend).
#include <catch2/catch.hpp>

#include <string>

#include "report/csv.h"
#include "support/process.h"

using edp::testing::edpbench;
using edp::testing::slurp;
using edp::testing::write_text;

namespace {

const std::vector<std::string> kSizes{"=cmd|' -C calc'!A0", "+SUM(1)", "@x"};

// The raw text has no cell that starts with a formula character, quoted or not.
bool has_formula_cell(const std::string& csv, const std::string& label) {
  for (const std::string& cell : {"," + label, ",\"" + label, "\n" + label, "\n\"" + label})
    if (csv.find(cell) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST_CASE("every CSV edpbench writes shows a formula-like label as text", "[cli][csv]") {
  const std::string dir = edp::testing::temp_dir("csv-cells");
  write_text(dir + "/c.yaml", "power: {source: trace, trace: {file: " EDPBENCH_FIXTURES
                              "/cli/constant_7w5.csv}, baseline_s: 0}\n"
                              "workloads: [tensors]\ndevices: [{kind: cpu, threads: 1}]\n"
                              "sizes: {\"=cmd|' -C calc'!A0\": {n: 2, d_in: 4, h: 4, d_out: 2}, "
                              "\"+SUM(1)\": {n: 3, d_in: 4, h: 4, d_out: 2}, "
                              "\"@x\": {n: 2, d_in: 5, h: 4, d_out: 2}}\n"
                              "iterations: 3\nruns: 2\nwarmup_iterations: 1\n");
  const std::string out = dir + "/o";
  auto r = edpbench("run --config " + dir + "/c.yaml --out " + out);
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const auto rec = edpbench("recommend " + out + "/results.csv --csv -");
  const auto cmp = edpbench("compare " + out + " " + out + " --csv");
  const auto meas = edpbench("measure --runs 1 --power-source none --label \"@x\" --csv " + dir +
                             "/m.csv -- true");
  REQUIRE(meas.exit_code == 0);
  for (const auto& [name, text] :
       {std::pair<std::string, std::string>{"results.csv", slurp(out + "/results.csv")},
        {"runs.csv", slurp(out + "/runs.csv")},
        {"recommend --csv", rec.out},
        {"compare --csv", cmp.out},
        {"measure --csv", slurp(dir + "/m.csv")}}) {
    INFO(name << ":\n" << text);
    CHECK_FALSE(text.empty());
    for (const auto& label : kSizes) CHECK_FALSE(has_formula_cell(text, label));
  }
  CHECK(slurp(out + "/results.csv").find("\"'=cmd|' -C calc'!A0\"") != std::string::npos);
  // Read back unchanged: the sizes, and resume finds every item done.
  const auto t = edp::report::read_csv_file(out + "/results.csv");
  REQUIRE(t.rows.size() == 3);
  for (size_t i = 0; i < 3; ++i) CHECK(t.get(i, "size") == kSizes[i]);
  r = edpbench("run --config " + dir + "/c.yaml --out " + out + " --resume");
  INFO(r.err);
  CHECK(r.exit_code == 0);
  CHECK(r.err.find("3 item(s) already done, 0 left") != std::string::npos);
}
