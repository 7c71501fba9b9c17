// `run` with the trace source: energy, EDP and rails against a known
// constant power, the idle baseline, and a sensor that fails mid-run.
#include <catch2/catch.hpp>

#include "report/csv.h"
#include "support/process.h"

using edp::testing::edpbench;

namespace {

std::string config(const std::string& dir, const std::string& trace, const std::string& extra) {
  const std::string path = dir + "/trace.yaml";
  edp::testing::write_text(
      path,
      "name: trace-test\niterations: 30\nruns: 3\nwarmup_iterations: 1\n"
      "learning_rate: 1.0e-5\ninit_scale: 0.5\nworkloads: [tensors, autograd]\n"
      "sizes: {tiny: {n: 8, d_in: 2000, h: 32, d_out: 4}}\n"
      "devices: [{kind: cpu, threads: 1}]\n"
      "power:\n  source: trace\n  trace: {file: " EDPBENCH_FIXTURES "/cli/" +
          trace + "}\n" + extra);
  return path;
}

double num(const edp::report::CsvTable& t, size_t r, const std::string& c) {
  return std::stod(t.get(r, c));
}

}  // namespace

TEST_CASE("constant trace power P gives energy P*t and EDP P*t^2 within 1%", "[cli][power]") {
  const std::string dir = edp::testing::temp_dir("trace");
  const std::string cfg = config(dir, "constant_7w5.csv",
                                 "  total_rails: [VDD_IN]\n  baseline_s: 0.3\n  min_run_s: 0.2\n");
  const auto r = edpbench("run --config " + cfg + " --out " + dir + "/out");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const auto runs = edp::report::read_csv_file(dir + "/out/runs.csv");
  REQUIRE(runs.rows.size() == 6);
  for (size_t i = 0; i < runs.rows.size(); ++i) {
    const double t = num(runs, i, "time_s"), e = num(runs, i, "energy_j");
    INFO("run " << i << ": t=" << t << " E=" << e);
    CHECK(e == Approx(7.5 * t).epsilon(0.01));
    CHECK(num(runs, i, "edp_js") == Approx(7.5 * t * t).epsilon(0.01));
    CHECK(num(runs, i, "power_w_mean") == Approx(7.5).epsilon(0.01));
    // The baseline is the same constant: nothing is left as dynamic energy.
    CHECK(num(runs, i, "dynamic_energy_j") == Approx(0.0).margin(0.01 * e));
    CHECK(num(runs, i, "samples") > 10);
  }
  const auto results = edp::report::read_csv_file(dir + "/out/results.csv");
  REQUIRE(results.rows.size() == 2);
  for (size_t i = 0; i < 2; ++i) {
    CHECK(results.get(i, "status") == "ok");
    CHECK(results.get(i, "power_source") == "trace");
    CHECK(results.get(i, "energy_rails") == "VDD_IN");
    CHECK(num(results, i, "energy_j_mean") ==
          Approx(7.5 * num(results, i, "time_s_mean")).epsilon(0.01));
  }
  // Per-rail energy, including the rail outside the total.
  const auto rails = edp::report::read_csv_file(dir + "/out/rails.csv");
  CHECK(rails.rows.size() == 12);
  for (size_t i = 0; i < rails.rows.size(); ++i)
    CHECK(num(rails, i, "power_w_mean") ==
          Approx(rails.get(i, "rail") == "VDD_IN" ? 7.5 : 2.5).epsilon(0.01));
  const std::string ctx = edp::testing::slurp(dir + "/out/context.json");
  CHECK_THAT(ctx, Catch::Contains("\"baseline_w\":{\"VDD_IN\":7.5"));  // baseline power per rail
}

TEST_CASE("a sensor failing mid-run fails that configuration and the sweep goes on",
          "[cli][power]") {
  const std::string dir = edp::testing::temp_dir("trace-fail");
  const std::string cfg = config(dir, "fails_after_300ms.csv",
                                 "  trace: {file: " EDPBENCH_FIXTURES
                                 "/cli/fails_after_300ms.csv, loop: false}\n"
                                 "  baseline_s: 0\n  min_run_s: 0.5\n");
  // The trace key appears twice in this config; replace the first one.
  std::string text = edp::testing::slurp(cfg);
  text = text.substr(0, text.find("  trace: {file:")) +
         text.substr(text.find("}\n", text.find("  trace: {file:")) + 2);
  edp::testing::write_text(cfg, text);
  const auto r = edpbench("run --config " + cfg + " --out " + dir + "/out");
  INFO(r.err);
  CHECK(r.exit_code == 1);  // nothing had complete energy
  const auto results = edp::report::read_csv_file(dir + "/out/results.csv");
  REQUIRE(results.rows.size() == 2);  // the second configuration still ran
  for (size_t i = 0; i < 2; ++i) {
    INFO(results.get(i, "note"));
    CHECK(results.get(i, "status") == "failed");
    CHECK_THAT(results.get(i, "note"),
               Catch::Contains("energy incomplete") && Catch::Contains("no value for VDD_IN_w"));
    CHECK(num(results, i, "time_s_mean") > 0);  // the times are kept
    CHECK(results.get(i, "energy_j_mean").empty());
  }
}
