// One surface (issue 35): every command that measures takes the same power
// options with the same names, ranges and messages; --trace implies the
// trace source everywhere; a mistyped subcommand is answered with the
// nearest one; arguments CLI11 did not expect are named in the order typed.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <fstream>
#include <string>
#include <vector>

#include "edpbench/config.h"
#include "report/csv.h"
#include "support/fixtures.h"
#include "support/process.h"

using edp::testing::edpbench;

using edp::testing::kConstantTrace;

namespace {

// A sweep of one tiny CPU item whose config names no power source at all:
// the power comes from the command line.
std::string surface_tiny_config(const std::string& dir) {
  const std::string path = dir + "/tiny.yaml";
  edp::testing::write_text(path,
                           "name: tiny\niterations: 20\nruns: 2\nwarmup_iterations: 1\n"
                           "learning_rate: 1.0e-5\ninit_scale: 0.5\nworkloads: [tensors]\n"
                           "sizes: {tiny: {n: 8, d_in: 500, h: 16, d_out: 4}}\n"
                           "devices: [{kind: cpu, threads: 1}]\n"
                           "power: {baseline_s: 0, min_run_s: 0.05}\n");
  return path;
}

// Each measuring command, with what it needs besides the power options.
std::vector<std::string> measuring_commands(const std::string& dir) {
  const std::string cfg = surface_tiny_config(dir);
  std::vector<std::string> commands{
      "run --config " + cfg + " --out " + dir + "/run-out",
      "ops --out " + dir + "/ops-out --ops add --bytes 1MB --devices cpu",
      "plan --config " + cfg + " --no-calibrate", "sensors", "measure"};
#if EDPBENCH_HAVE_PROMETHEUS  // a build without it has no exporter to check
  // Before: its own copies of the flags, a different --rate-hz help and no -v.
  commands.push_back("exporter --listen 127.0.0.1:0 --duration-s 1");
#endif
  return commands;
}

std::string with_command(const std::string& cmd, const std::string& options) {
  return cmd + " " + options + (cmd == "measure" ? " -- true" : "");
}

}  // namespace

TEST_CASE("every measuring command takes the power options with the config's ranges and messages",
          "[cli][surface][slow]") {
  const std::string dir = edp::testing::temp_dir("surface");
  for (const auto& cmd : measuring_commands(dir)) {
    INFO(cmd);
    // Before issue 35, `run` had no --rate-hz, --power-source or --trace at
    // all ("The following arguments were not expected").
    const auto slow = edpbench(with_command(cmd, "--trace " + kConstantTrace + " --rate-hz 0.5"));
    INFO(slow.err);
    CHECK(slow.exit_code == 2);
    CHECK_THAT(slow.err,
               Catch::Contains("--rate-hz 0.5: 'rate_hz' = 0.5 is out of range [1, 10000]"));
    const auto source = edpbench(with_command(cmd, "--power-source psu"));
    CHECK(source.exit_code == 2);
    CHECK_THAT(source.err, Catch::Contains("--power-source psu:") && Catch::Contains("rapl"));
    const auto both =
        edpbench(with_command(cmd, "--trace " + kConstantTrace + " --power-source jetson"));
    CHECK(both.exit_code == 2);
    CHECK_THAT(both.err, Catch::Contains("replays a trace, but --power-source is jetson"));
    const auto missing = edpbench(with_command(cmd, "--trace " + dir + "/no-such.csv"));
    CHECK(missing.exit_code == 2);
    CHECK_THAT(missing.err,
               Catch::Contains("--trace: trace file '" + dir + "/no-such.csv' cannot be read"));
    const auto rails =
        edpbench(with_command(cmd, "--trace " + kConstantTrace + " --total-rails VDD_XX"));
    CHECK(rails.exit_code == 2);
    CHECK_THAT(rails.err, Catch::Contains("VDD_XX"));
  }
}

TEST_CASE("run measures on a trace given on the command line (--trace implies the source)",
          "[cli][surface]") {
  const std::string dir = edp::testing::temp_dir("surface-run");
  const auto r = edpbench("run --config " + surface_tiny_config(dir) + " --out " + dir +
                          "/out --trace " + kConstantTrace + " --total-rails VDD_IN");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const auto results = edp::report::read_csv_file(dir + "/out/results.csv");
  REQUIRE(results.rows.size() == 1);
  CHECK(results.get(0, "power_source") == "trace");
  CHECK(results.get(0, "energy_rails") == "VDD_IN");
  CHECK(std::stod(results.get(0, "power_w_mean")) == Approx(7.5).epsilon(0.01));
}

TEST_CASE("sensors --trace reads the trace without --power-source", "[cli][surface]") {
  // Before issue 35 sensors ignored --trace unless --source trace was given
  // too, found no sensor and exited 1.
  const auto r = edpbench("sensors --trace " + kConstantTrace);
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.out, Catch::Contains("source: trace") && Catch::Contains("7.500"));
  // The older name of the option still works.
  const auto old = edpbench("sensors --source trace --trace " + kConstantTrace);
  CHECK(old.exit_code == 0);
  // The same session as run: --total-rails is honoured and checked.
  const auto gpu = edpbench("sensors --trace " + kConstantTrace + " --total-rails VDD_SYS_GPU");
  CHECK(gpu.exit_code == 0);
  CHECK_THAT(gpu.out, Catch::Contains("energy = VDD_SYS_GPU"));
}

TEST_CASE("a mistyped subcommand is answered with the nearest one", "[cli][surface]") {
  // Before issue 35: "A subcommand is required".
  const auto r = edpbench("mesure -- true");
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Catch::Contains("'mesure' is not an edpbench command") &&
                        Catch::Contains("Did you mean measure?"));
  const auto swapped = edpbench("rnu --config x");
  CHECK_THAT(swapped.err, Catch::Contains("Did you mean run?"));
  const auto prefix = edpbench("recomm x.csv");
  CHECK_THAT(prefix.err, Catch::Contains("Did you mean recommend?"));
  const auto far = edpbench("frobnicate");
  CHECK(far.exit_code == 2);
  CHECK_THAT(far.err, !Catch::Contains("Did you mean") && Catch::Contains("The commands are:"));
}

TEST_CASE("arguments a command does not take are named in the order typed", "[cli][surface]") {
  // CLI11 2.1 printed them reversed: "not expected: x --frob y.csv --trace".
  const auto r = edpbench("run --config c.yaml --frob x --trace " + kConstantTrace + " extra");
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Catch::Contains("edpbench run: error: unexpected arguments: --frob x extra"));
}

TEST_CASE("run's progress counts skipped items and is never glued to warnings or blank lines",
          "[cli][surface]") {
  // The gpu item is skipped on a machine without one; before issue 35 the
  // last line then said "[50% done, ETA 0m10s]", and the preview's blank
  // line and the warnings ended in "[0% done, ETA --:--]".
  const std::string dir = edp::testing::temp_dir("surface-progress");
  const std::string cfg = dir + "/two.yaml";
  edp::testing::write_text(cfg,
                           "name: two\niterations: 20\nruns: 2\nwarmup_iterations: 1\n"
                           "learning_rate: 1.0e-5\ninit_scale: 0.5\nworkloads: [tensors]\n"
                           "sizes: {tiny: {n: 8, d_in: 500, h: 16, d_out: 4}}\n"
                           "devices: [{kind: cpu, threads: 1}, {kind: gpu}]\n"
                           "power: {baseline_s: 0.2, min_run_s: 0.05}\n");
  const auto r =
      edpbench("run --config " + cfg + " --out " + dir + "/out --trace " + kConstantTrace);
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  std::vector<std::string> lines;
  for (size_t at = 0; at < r.err.size();) {
    const size_t end = std::min(r.err.find('\n', at), r.err.size());
    lines.push_back(r.err.substr(at, end - at));
    at = end + 1;
  }
  std::string last_status;
  int statuses = 0;
  for (const auto& l : lines) {
    if (l.find("% done") == std::string::npos) continue;
    INFO(l);
    ++statuses;
    last_status = l;
    CHECK(l.find("warning") == std::string::npos);
    CHECK(l.find("edpbench: ") == 0);  // a status, not a blank line or the preview's tail
  }
  // Two cpu runs, then the gpu item: skipped here, two runs where there is one.
  const bool gpu_ran = r.err.find("tensors/tiny/gpu run 2") != std::string::npos;
  CHECK(statuses == (gpu_ran ? 4 : 3));
  CHECK_THAT(last_status, Catch::Contains("[100% done"));
}

TEST_CASE("recommend --json: the recommendations as one object, the CSV's choices",
          "[cli][recommend][json]") {
  const std::string results = EDPBENCH_FIXTURES "/report/tx2_sweep/results.csv";
  const auto r = edpbench("recommend " + results + " --objective energy --json");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);  // before issue 35: "--json: not expected", exit 2
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j.at("objective") == "energy");
  CHECK(j.at("decided") == true);
  const auto csv = edpbench("recommend " + results + " --objective energy --csv -");
  REQUIRE(csv.exit_code == 0);
  const std::string path = edp::testing::temp_dir("recommend-json") + "/r.csv";
  edp::testing::write_text(path, csv.out);
  const auto table = edp::report::read_csv_file(path);
  REQUIRE(j.at("recommendations").size() == table.rows.size());
  for (size_t i = 0; i < table.rows.size(); ++i) {
    const auto& rec = j.at("recommendations")[i];
    CHECK(rec.at("workload") == table.get(i, "workload"));
    CHECK(rec.at("choice") == table.get(i, "choice"));
    CHECK(rec.at("gpu").at("energy_j").is_number());
  }
  CHECK(edpbench("recommend " + results + " --json --csv -").exit_code == 2);
}

TEST_CASE(
    "recommend takes a sweep directory as report and compare do, and an empty sweep gets the "
    "same words from all three",
    "[cli][recommend][surface]") {
  const std::string sweep = EDPBENCH_FIXTURES "/report/tx2_sweep";
  const auto by_file = edpbench("recommend " + sweep + "/results.csv --csv -");
  const auto by_dir = edpbench("recommend " + sweep + " --csv -");
  INFO(by_dir.err);
  REQUIRE(by_file.exit_code == 0);
  CHECK(by_dir.exit_code == 0);  // before: "it is a directory", exit 2
  CHECK(by_dir.out == by_file.out);

  // The header alone: a sweep that has not run a configuration yet.
  const std::string dir = edp::testing::temp_dir("empty-sweep");
  const std::string results = edp::testing::slurp(sweep + "/results.csv");
  edp::testing::write_text(dir + "/results.csv", results.substr(0, results.find('\n') + 1));
  const std::string words = dir +
                            "/results.csv has no configuration: did the sweep run? "
                            "(`edpbench run --resume --out " +
                            dir + "` continues it)";
  const auto report = edpbench("report " + dir);
  CHECK(report.exit_code == 0);  // the report of an empty sweep is still written
  CHECK_THAT(report.err, Catch::Contains("warning: " + words));
  const auto compare = edpbench("compare " + dir + " " + sweep);
  CHECK(compare.exit_code == 2);
  CHECK_THAT(compare.err, Catch::Contains(words));
  for (const std::string& given : {dir, dir + "/", dir + "/results.csv"}) {
    const auto recommend = edpbench("recommend " + given);
    CHECK(recommend.exit_code == 1);                    // none decided
    CHECK_THAT(recommend.err, Catch::Contains(words));  // before: "the file has no configurations"
  }
  // A header-only CSV of another name is not a sweep: no advice about one.
  edp::testing::write_text(dir + "/board-a.csv", results.substr(0, results.find('\n') + 1));
  const auto other = edpbench("recommend " + dir + "/board-a.csv");
  CHECK(other.exit_code == 1);
  CHECK_THAT(other.err, Catch::Contains(dir + "/board-a.csv has no configuration (a header and "
                                              "no rows)"));
  // A directory without a results.csv: the words of report and compare.
  const std::string none = edp::testing::temp_dir("no-results");
  const auto report_none = edpbench("report " + none);
  const auto recommend_none = edpbench("recommend " + none);
  CHECK(report_none.exit_code == 2);
  CHECK(recommend_none.exit_code == 2);
  CHECK_THAT(recommend_none.err, Catch::Contains("no results.csv in " + none + "; pass the --out"));
  CHECK(recommend_none.err == report_none.err);

  // A deploy study's sweep keeps its rows in deploy.csv: recommend says how
  // to rank them, and the report says nothing of a sweep that did not run.
  edp::testing::write_text(
      dir + "/deploy.csv",
      edp::testing::slurp(EDPBENCH_FIXTURES "/deploy/release-simulated/deploy.csv"));
  const auto deploy = edpbench("recommend " + dir);
  CHECK(deploy.exit_code == 1);
  CHECK_THAT(deploy.err, Catch::Contains("keep their rows in deploy.csv (`edpbench recommend " +
                                         dir + " --rate R --battery-wh W`"));
  CHECK(edpbench("recommend " + dir + " --rate 1 --battery-wh 10").exit_code == 0);
  CHECK_THAT(edpbench("report " + dir).err, !Catch::Contains("did the sweep run"));
}

TEST_CASE(
    "run --json: the sweep's results as JSON, typed, and a path that cannot be written refused "
    "first",
    "[cli][run][json]") {
  const std::string dir = edp::testing::temp_dir("run-json");
  const auto r = edpbench("run --config " + surface_tiny_config(dir) + " --out " + dir +
                          "/out --trace " + kConstantTrace + " --json " + dir + "/run.json");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);  // before issue 35: "--json: not expected", exit 2
  const auto j = nlohmann::json::parse(edp::testing::slurp(dir + "/run.json"));
  CHECK(j.at("out_dir") == dir + "/out");
  CHECK(j.at("exit_status") == 0);
  const auto results = edp::report::read_csv_file(dir + "/out/results.csv");
  REQUIRE(j.at("results").size() == results.rows.size());
  const auto& row = j.at("results")[0];
  CHECK(row.at("workload") == "tensors");
  CHECK(row.at("status") == "ok");
  CHECK(row.at("runs").is_number());
  CHECK(row.at("power_w_mean").get<double>() == Approx(7.5).epsilon(0.01));
  CHECK(row.at("diverged") == false);

  const auto bad =
      edpbench("run --config " + surface_tiny_config(dir) + " --out " + dir + "/out2 --trace " +
               kConstantTrace + " --json " + dir + "/no/such/dir/run.json");
  CHECK(bad.exit_code == 2);
  CHECK_THAT(bad.err, Catch::Contains("--json " + dir + "/no/such/dir/run.json: the directory"));
  CHECK_FALSE(std::ifstream(dir + "/out2/results.csv").good());
}
