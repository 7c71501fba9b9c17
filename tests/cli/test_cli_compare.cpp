// `edpbench compare` as a user runs it: the two fixture boards (TX2 and Orin
// NX sweeps), exit codes 0/1/2, --csv and --json on stdout.
#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <fstream>

#include "support/fixtures.h"
#include "support/process.h"

using edp::testing::edpbench;

using edp::testing::kOrinSweep;
using edp::testing::kTx2Sweep;

namespace {}  // namespace

TEST_CASE("compare: tables, context differences, one-side configurations") {
  const auto r = edpbench("compare " + kTx2Sweep + " " + kOrinSweep);
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("board: tx2_sweep NVIDIA Jetson TX2 Developer Kit; orin_nx_sweep NVIDIA "
                   "Jetson Orin NX") != std::string::npos);
  CHECK(r.out.find("nvpmodel mode: tx2_sweep MAXN; orin_nx_sweep 15W") != std::string::npos);
  CHECK(r.out.find("tensors/small/gpu") != std::string::npos);
  CHECK(r.out.find("(p=1.1e-05 n=10+10)") != std::string::npos);  // 10+10 separated
  CHECK(r.out.find("tensors/small/reference: only in tx2_sweep") != std::string::npos);
  CHECK(r.out.find("geomean") != std::string::npos);
}

TEST_CASE("compare: --fail-on-regression exits 1 on a significant regression only") {
  // The Orin is faster: no time regression from the TX2 to it, but the
  // TX2's reference-backend configuration is not in the Orin's sweep, so
  // the gate could not check it and does not pass it...
  auto r =
      edpbench("compare " + kTx2Sweep + " " + kOrinSweep + " --fail-on-regression 5 --metric time");
  CHECK(r.exit_code == 1);
  CHECK(r.err ==
        "edpbench: regression: tensors/small/reference: time not measured in orin_nx_sweep "
        "(measured in the base, not in this sweep, so not passed)\n");
  // ...and the other way round, every configuration is one.
  r = edpbench("compare " + kOrinSweep + " " + kTx2Sweep + " --fail-on-regression 5 --metric time");
  CHECK(r.exit_code == 1);
  CHECK(r.err.find("edpbench: regression: tensors/small/gpu: time +") != std::string::npos);
  // A threshold above every change: passes.
  r = edpbench("compare " + kOrinSweep + " " + kTx2Sweep +
               " --fail-on-regression 500 --metric time");
  CHECK(r.exit_code == 0);
  r = edpbench("compare " + kOrinSweep + " " + kTx2Sweep +
               " --fail-on-regression 5 --metric watts");
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("--metric 'watts' is unknown") != std::string::npos);
}

TEST_CASE("compare: --csv and --json carry the data alone") {
  auto r = edpbench("compare " + kTx2Sweep + " " + kOrinSweep + " " + kOrinSweep + " --csv");
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.rfind("config,workload,size,device,metric,base_sweep,sweep,base_mean", 0) == 0);
  CHECK(r.out.find(",time,tx2_sweep,orin_nx_sweep#2,") != std::string::npos);
  CHECK(r.err.find("warning: board:") != std::string::npos);
  r = edpbench("compare " + kTx2Sweep + " " + kOrinSweep + " --json");
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("\"paired_by\"") != std::string::npos);
  CHECK(r.out.front() == '{');
}

TEST_CASE("compare: bad inputs exit 2 with what to fix") {
  auto r = edpbench("compare " + kTx2Sweep);
  CHECK(r.exit_code == 2);
  const std::string tmp = edp::testing::temp_dir("compare");
  r = edpbench("compare " + kTx2Sweep + " " + tmp);
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("no results.csv in " + tmp) != std::string::npos);
  r = edpbench("compare " + kTx2Sweep + " " + EDPBENCH_FIXTURES "/report/tx2_studies");
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("no configuration of tx2_studies") != std::string::npos);
  // A runs.csv from another sweep.
  const std::string mixed = tmp + "/mixed";
  ::mkdir(mixed.c_str(), 0755);
  edp::testing::write_text(mixed + "/results.csv", edp::testing::slurp(kTx2Sweep + "/results.csv"));
  edp::testing::write_text(mixed + "/runs.csv", edp::testing::slurp(kOrinSweep + "/runs.csv"));
  r = edpbench("compare " + kTx2Sweep + " " + mixed);
  CHECK(r.exit_code == 2);
  CHECK(r.err.find("has runs=10 but runs.csv has 0") != std::string::npos);
}

TEST_CASE("report over several directories: the cross-board report") {
  const std::string tmp = edp::testing::temp_dir("boards");
  auto r = edpbench("report " + kTx2Sweep + " " + kOrinSweep + " -o " + tmp +
                    "/boards.html --deadline-s 2 --objective energy");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.err.find("(2 sweeps, 39 configurations)") != std::string::npos);
  const std::string html = edp::testing::slurp(tmp + "/boards.html");
  CHECK(html.find("for autograd/medium under a 2 s deadline, the lowest energy is Jetson Orin "
                  "NX GPU at 15W") != std::string::npos);
  // One directory: today's report, unchanged.
  r = edpbench("report " + kTx2Sweep + " -o " + tmp + "/one.html");
  CHECK(r.exit_code == 0);
  CHECK(edp::testing::slurp(tmp + "/one.html").find("edpbench report: tx2_sweep") !=
        std::string::npos);
  r = edpbench("report " + kTx2Sweep + " " + tmp + " -o " + tmp + "/x.html");
  CHECK(r.exit_code == 2);
  r = edpbench("report " + kTx2Sweep + " " + kOrinSweep + " --objective watts -o " + tmp +
               "/x.html");
  CHECK(r.exit_code == 2);
}
