// The throwaway study (src/bench/study_empty.cpp) through every surface, to
// show that a study added as its own file and one line of studies.def is
// planned, run, written, resumed, reported and recommended like the others.
#include <catch2/catch.hpp>

#include "report/csv.h"
#include "support/process.h"

using edp::testing::edpbench;

TEST_CASE("a study added by its file and one registry line runs everywhere", "[study]") {
  const std::string dir = edp::testing::temp_dir("empty-study");
  const std::string cfg = dir + "/empty.yaml";
  edp::testing::write_text(cfg,
                           "name: empty\nstudies: [empty]\niterations: 3\nruns: 2\n"
                           "warmup_iterations: 1\ndevices:\n"
                           "  - {kind: cpu, threads: 1, cpus: all}\n"
                           "  - {kind: reference}\n"
                           "power:\n  source: trace\n  baseline_s: 0\n  trace: {file: " +
                               std::string(EDPBENCH_FIXTURES) + "/cli/constant_7w5.csv}\n");
  auto r = edpbench("plan --config " + cfg);
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("empty/reference") != std::string::npos);

  r = edpbench("run --config " + cfg + " --out " + dir + "/out");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const auto results = edp::report::read_csv_file(dir + "/out/results.csv");
  REQUIRE(results.rows.size() == 2);
  CHECK(results.get(0, "study") == "empty");
  CHECK(results.get(1, "status") == "ok");
  // The engine wrote its runs.
  CHECK(edp::report::read_csv_file(dir + "/out/runs.csv").rows.size() == 4);
  // A resumed sweep finds both items done.
  r = edpbench("run --config " + cfg + " --out " + dir + "/out --resume");
  CHECK(r.exit_code == 0);
  CHECK(r.err.find("2 item(s) already done, 0 left") != std::string::npos);

  r = edpbench("report " + dir + "/out");
  REQUIRE(r.exit_code == 0);
  const std::string html = edp::testing::slurp(dir + "/out/report.html");
  CHECK(html.find("<h2 id=\"empty\">Protocol cost per step</h2>") != std::string::npos);
  CHECK(html.find("<tr><td>reference</td><td>") != std::string::npos);
  r = edpbench("recommend " + dir + "/out/results.csv");
  CHECK(r.exit_code == 0);  // CPU, the only cpu- or gpu-kind device, is chosen
}
