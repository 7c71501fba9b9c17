// The ops study end to end (DESIGN §9.1): `edpbench ops` and `studies: [ops]`
// write ops.csv with the DESIGN columns, energy per op from a constant trace
// is power x time per op, and an interrupted study resumes without
// measuring a finished item again.
#include <yaml-cpp/yaml.h>
#include <catch2/catch.hpp>

#include <cmath>

#include "report/csv.h"
#include "report/ops_csv.h"
#include "support/process.h"
#include "workloads/cpu_backend.h"

namespace {

std::string ops_config(const std::string& dir) {
  const std::string path = dir + "/ops.yaml";
  edp::testing::write_text(path, std::string(R"(name: ops-test
studies: [ops]
devices:
  - {kind: cpu, threads: 1}
ops: {ops: [copy, add, fma_peak], bytes: [64KB], cold: true, steps: 5, runs: 2,
      max_rel_ci: 0, min_run_s: 0}
power:
  source: trace
  baseline_s: 0
  trace: {file: )") + EDPBENCH_FIXTURES "/cli/constant_7w5.csv}\n");
  return path;
}

}  // namespace

TEST_CASE("ops study writes ops.csv with the DESIGN columns and energy = power x time per op",
          "[cli][ops]") {
  const std::string dir = edp::testing::temp_dir("ops");
  const auto r =
      edp::testing::edpbench("run --config " + ops_config(dir) + " --out " + dir + "/out");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const auto ops = edp::report::read_csv_file(dir + "/out/ops.csv");
  const auto& required = edp::report::ops_required_columns();
  REQUIRE(ops.header.size() >= required.size());
  CHECK(std::vector<std::string>(ops.header.begin(), ops.header.begin() + required.size()) ==
        required);
  // fma_peak, then copy and add, each warm and cold.
  REQUIRE(ops.rows.size() == 5);
  CHECK(ops.get(0, "op") == "fma_peak");
  CHECK(ops.get(0, "bound") == "compute");
  for (size_t i = 0; i < ops.rows.size(); ++i) {
    INFO(ops.get(i, "key"));
    CHECK(ops.get(i, "status") == "ok");
    CHECK(std::stod(ops.get(i, "power_w_mean")) == Approx(7.5).epsilon(0.01));
  }
  for (size_t i = 1; i < ops.rows.size(); ++i) {
    INFO(ops.get(i, "key"));
    CHECK(std::stod(ops.get(i, "bytes_moved")) > 0);
    CHECK(ops.get(i, "bound") == "memory");
    if (ops.get(i, "variant") != "warm") continue;
    // Constant 7.5 W: the energy of one op is 7.5 W x its time, both the
    // median of the same runs (issue 26; the energy was the mean before).
    const double t = std::stod(ops.get(i, "time_s_median"));
    CHECK(std::stod(ops.get(i, "energy_per_op_j")) == Approx(7.5 * t).epsilon(1e-6));
  }
  // add: 1 FLOP and 12 bytes per element, 64 KB of working set.
  for (size_t i = 0; i < ops.rows.size(); ++i)
    if (ops.get(i, "op") == "add" && ops.get(i, "variant") == "warm") {
      // 64 KB / 12 bytes = 5461 whole elements.
      CHECK(std::stod(ops.get(i, "flop")) == 5461);
      CHECK(std::stod(ops.get(i, "bytes_moved")) == 5461 * 12);
      const double pj = std::stod(ops.get(i, "pj_per_flop"));
      CHECK(pj ==
            Approx(std::stod(ops.get(i, "energy_per_op_j")) / std::stod(ops.get(i, "flop")) * 1e12)
                .epsilon(1e-6));
    }
  // The runs of every part are in runs.csv: fma_peak, copy and add warm (one
  // part each) and cold (the op and the flush), 2 runs each.
  const auto runs = edp::report::read_csv_file(dir + "/out/runs.csv");
  CHECK(runs.rows.size() == (1 + 2 * (1 + 2)) * 2);
}

TEST_CASE("an interrupted ops study resumes without measuring finished items again",
          "[cli][ops][resume]") {
  const std::string dir = edp::testing::temp_dir("ops-resume");
  const std::string cfg = ops_config(dir), out = dir + "/out";
  REQUIRE(edp::testing::edpbench("run --config " + cfg + " --out " + out).exit_code == 0);
  // Lose the last item as a kill between its runs.csv and its ops.csv would.
  auto ops = edp::report::read_csv_file(out + "/ops.csv");
  const std::string lost = ops.get(ops.rows.size() - 1, "key");
  ops.rows.pop_back();
  std::string text = edp::report::csv_line(ops.header);
  for (const auto& row : ops.rows) text += edp::report::csv_line(row);
  edp::testing::write_text(out + "/ops.csv", text);

  const auto r = edp::testing::edpbench("run --config " + cfg + " --out " + out + " --resume");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.err, Catch::Contains("4 item(s) already done, 1 left"));
  const auto after = edp::report::read_csv_file(out + "/ops.csv");
  REQUIRE(after.rows.size() == 5);
  CHECK(after.get(4, "key") == lost);
  // The measured ceilings survive --resume: the re-measured item reads them
  // back from the committed fma_peak and warm copy rows (they were empty
  // before issue 22.5, since the study kept them in memory).
  CHECK(after.get(4, "measured_peak_gflops") == after.get(0, "gflops"));
  REQUIRE_FALSE(after.get(4, "measured_peak_gbs").empty());
  CHECK(after.get(4, "measured_peak_gbs") == after.get(4 - 1, "measured_peak_gbs"));
  // The lost item's runs were dropped and measured once more: no duplicates.
  const auto runs = edp::report::read_csv_file(out + "/runs.csv");
  CHECK(runs.rows.size() == (1 + 2 * (1 + 2)) * 2);
}

TEST_CASE("ops rejects a size without a unit it knows, naming the valid ones", "[cli][ops]") {
  const std::string dir = edp::testing::temp_dir("ops-bad");
  const auto r = edp::testing::edpbench("ops --out " + dir + "/out --bytes 16XB");
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Catch::Contains("'16XB' is not a size"));
  CHECK_THAT(r.err, Catch::Contains("B, KB, MB or GB"));
}

TEST_CASE("the ops study's GEMMs run on the path gemm: auto measured for each shape (issue 38)",
          "[cli][ops][gemm]") {
  const std::string dir = edp::testing::temp_dir("ops-gemm");
  const std::string cfg = dir + "/ops-gemm.yaml";
  edp::testing::write_text(cfg, R"(name: ops-gemm
studies: [ops]
sizes: {tiny: {n: 8, d_in: 64, h: 16, d_out: 4}}
devices:
  - {kind: cpu, threads: 2, cpus: all, gemm: auto}
  - {kind: cpu, threads: 1, cpus: all, gemm: eigen}
ops: {ops: [gemm], gemm_n: [32], steps: 3, runs: 2, max_rel_ci: 0, min_run_s: 0}
power: {source: none}
)");
  const auto r = edp::testing::edpbench("run --config " + cfg + " --out " + dir + "/out");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const auto ops = edp::report::read_csv_file(dir + "/out/ops.csv");
  REQUIRE(ops.rows.size() == 2 * 6);  // 32^3 and the tiny MLP's five, per device
  for (size_t i = 0; i < ops.rows.size(); ++i) CHECK(ops.get(i, "status") == "ok");
  const YAML::Node backends = YAML::LoadFile(dir + "/out/context.json")["backends"];
  // The auto device: one decision per shape, each with the rule and the
  // samples of every path, in its backend's facts.
  const YAML::Node aut = backends["cpu"];
  REQUIRE(aut.IsMap());
  for (const std::string shape : {"gemm 32x32x32", "gemm 8x16x64", "gemm 8x4x16", "gemm 16x4x8 tA",
                                  "gemm 8x16x4 tB", "gemm 64x16x8 tA"}) {
    INFO(shape);
    if (edp::cpu_auto_gemm_paths().size() < 2) break;  // one path: nothing to choose
    REQUIRE(aut["gemm_choice " + shape]);
    const std::string choice = aut["gemm_choice " + shape].as<std::string>();
    CHECK_THAT(choice, Catch::Contains(" (auto: "));
    for (const std::string& path : edp::cpu_auto_gemm_paths())
      CHECK_THAT(choice, Catch::Contains("; " + path + " median "));
  }
  // The configured device measured nothing: its path is the config's.
  const YAML::Node fixed = backends["cpu#2"];
  REQUIRE(fixed.IsMap());
  CHECK(fixed["gemm_choice"].as<std::string>() == "eigen (configured)");
  for (const auto& kv : fixed) CHECK(kv.first.as<std::string>().rfind("gemm_choice ", 0) != 0);
}
