// A whole sweep against a fake Jetson TX2: the platform fixture (device tree,
// L4T R32.7.1, nvpmodel, A57/Denver cpuinfo, devfreq, thermal) and the
// JetPack 4 INA3221 fixture (ina3221x iio rails) merged under one
// --sysfs-root, with configs/tx2.yaml shrunk to tiny sizes. The fixture's
// rails are files that never change: a frozen sensor, which must not give
// energy. The live case replaces them with the simulated INA3221 of
// tests/power/ina3221_sim.h, whose values update every 0.43 s.
#include <yaml-cpp/yaml.h>
#include <catch2/catch.hpp>

#include <filesystem>
#include <set>

#include "power/ina3221_sim.h"
#include "report/csv.h"
#include "support/process.h"

namespace fs = std::filesystem;

namespace {

// configs/tx2.yaml, shrunk: tiny sizes, two short runs, no waits, the
// sampler unpinned (this host has neither the A57 cores nor CPU 2).
void write_tiny_tx2_config(const std::string& dir, double min_run_s, double baseline_s) {
  YAML::Node cfg = YAML::LoadFile(EDPBENCH_CONFIGS "/tx2.yaml");
  YAML::Node sizes;
  sizes["tiny"]["n"] = 8;
  sizes["tiny"]["d_in"] = 500;
  sizes["tiny"]["h"] = 16;
  sizes["tiny"]["d_out"] = 4;
  cfg["sizes"] = sizes;
  cfg["iterations"] = 5;
  cfg["runs"] = 2;
  cfg["warmup_iterations"] = 1;
  cfg["workloads"] = YAML::Load("[tensors]");
  // This host has neither the A57 cores nor the TX2's CPU 2 for the sampler.
  cfg["devices"] = YAML::Load("[{kind: cpu, threads: 1, cpus: all}, {kind: gpu}]");
  cfg["power"]["sampler_cpu"] = -1;
  cfg["power"]["min_run_s"] = min_run_s;
  cfg["power"]["baseline_s"] = baseline_s;
  cfg["cooldown_s"] = 0;
  cfg["max_start_temp_c"] = 0;
  YAML::Emitter e;
  e << cfg;
  edp::testing::write_text(dir + "/tx2.yaml", e.c_str());
}

void copy_tree(const std::string& from, const std::string& to) {
  const auto opts = fs::copy_options::recursive | fs::copy_options::copy_symlinks |
                    fs::copy_options::overwrite_existing;
  fs::copy(from, to, opts);
}

}  // namespace

TEST_CASE("tx2.yaml on a fake TX2 whose rails never change reports a frozen sensor, not energy",
          "[cli][tx2]") {
  const std::string dir = edp::testing::temp_dir("tx2");
  const std::string root = dir + "/root";
  copy_tree(EDPBENCH_FIXTURES "/platform/tx2", root);
  copy_tree(EDPBENCH_FIXTURES "/power/tx2-jp4", root);
  write_tiny_tx2_config(dir, 0.3, 0.2);

  const auto r = edp::testing::edpbench("run --config " + dir + "/tx2.yaml --sysfs-root " + root +
                                        " --out " + dir + "/out");
  INFO(r.err);
  // Nothing could be measured with energy: exit 1, the cpu row failed, the
  // gpu row failed too or was skipped.
  CHECK(r.exit_code == 1);
  const auto results = edp::report::read_csv_file(dir + "/out/results.csv");
  REQUIRE(results.rows.size() == 2);
  CHECK(results.get(0, "status") == "failed");
  CHECK(results.get(0, "power_source") == "jetson");
  CHECK(results.get(0, "energy_rails") == "VDD_IN");
  // The fixture's VDD_IN reads 1929 mW and never changes: no joule from it.
  CHECK_THAT(results.get(0, "note"), Catch::Contains("frozen sensor: VDD_IN"));
  CHECK(results.get(0, "energy_j_mean").empty());
  CHECK_FALSE(results.get(0, "time_s_mean").empty());  // the times are kept
  const auto runs = edp::report::read_csv_file(dir + "/out/runs.csv");
  CHECK(runs.get(0, "frozen") == "true");
  CHECK(runs.get(0, "low_confidence") == "true");
  CHECK(results.get(1, "device") == "gpu");
  // A machine without a usable GPU skips the row and says why. One with a GPU
  // (or the simulated one of a GPU_SIM build) runs it against the same frozen
  // VDD_IN, so it fails the same way: never "ok", which would be energy from a
  // sensor that never changed.
  const std::string gpu_status = results.get(1, "status");
  INFO("gpu row: status " << gpu_status << ", note: " << results.get(1, "note"));
  CHECK((gpu_status == "failed" || gpu_status == "skipped"));
  if (gpu_status == "skipped") CHECK_FALSE(results.get(1, "note").empty());
  if (gpu_status == "failed") {
    CHECK_THAT(results.get(1, "note"), Catch::Contains("frozen sensor: VDD_IN"));
    CHECK(results.get(1, "energy_j_mean").empty());
  }

  // Every named rail of the module and the carrier board, none of the NC ones.
  const auto rails = edp::report::read_csv_file(dir + "/out/rails.csv");
  std::set<std::string> names;
  for (size_t i = 0; i < rails.rows.size(); ++i) names.insert(rails.get(i, "rail"));
  CHECK(names.count("VDD_IN") == 1);
  CHECK(names.count("VDD_SYS_GPU") == 1);
  CHECK(names.count("VDD_SYS_CPU") == 1);
  CHECK(names.count("NC") == 0);

  const std::string ctx = edp::testing::slurp(dir + "/out/context.json");
  CHECK_THAT(ctx, Catch::Contains("\"model\":\"quill\""));
  CHECK_THAT(ctx, Catch::Contains("R32.7.1"));
  CHECK_THAT(ctx, Catch::Contains("\"mode\":\"MAXN\""));
  CHECK_THAT(ctx, Catch::Contains("\"VDD_IN\":1.929"));  // idle baseline per rail
}

TEST_CASE("tx2.yaml on a live simulated TX2 measures VDD_IN energy with the lag corrected",
          "[cli][tx2]") {
  edp::testing::Ina3221Sim sim;  // VDD_IN idles at 2 W (+ 10 mW noise), updates every 0.43 s
  const std::string dir = edp::testing::temp_dir("tx2-live");
  copy_tree(EDPBENCH_FIXTURES "/platform/tx2", sim.root());
  // A baseline of two update periods: shorter windows cannot average the
  // sensor's noise (see docs/lag-accuracy.md).
  write_tiny_tx2_config(dir, 1.0, 1.0);

  const auto r = edp::testing::edpbench("run --config " + dir + "/tx2.yaml --sysfs-root " +
                                        sim.root() + " --out " + dir + "/out --devices cpu");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const auto results = edp::report::read_csv_file(dir + "/out/results.csv");
  REQUIRE(results.rows.size() == 1);
  CHECK(results.get(0, "status") == "ok");
  CHECK(results.get(0, "energy_rails") == "VDD_IN");
  // The module input alone: not the sub-rails it feeds.
  CHECK(std::stod(results.get(0, "power_w_mean")) == Approx(2.0).epsilon(0.02));
  CHECK(std::stod(results.get(0, "baseline_w")) == Approx(2.0).epsilon(0.02));
  const double time_s = std::stod(results.get(0, "time_s_mean"));
  CHECK(std::stod(results.get(0, "energy_j_mean")) == Approx(2.0 * time_s).epsilon(0.03));

  const auto runs = edp::report::read_csv_file(dir + "/out/runs.csv");
  REQUIRE(runs.rows.size() == 2);
  for (size_t i = 0; i < runs.rows.size(); ++i) {
    CHECK(runs.get(i, "frozen") == "false");
    CHECK(std::stod(runs.get(i, "update_interval_s")) == Approx(0.43).epsilon(0.1));
    CHECK(std::stod(runs.get(i, "lag_correction_s")) == Approx(0.43).epsilon(0.1));
    CHECK(std::stoul(runs.get(i, "distinct_values")) >= 2);
    // The window on both clocks: a Unix time of today, and a monotonic span
    // equal to the run's wall time (within the window bookkeeping).
    const double unix0 = std::stod(runs.get(i, "start_unix_s"));
    CHECK(unix0 > 1.7e9);
    const double span =
        std::stod(runs.get(i, "end_monotonic_s")) - std::stod(runs.get(i, "start_monotonic_s"));
    CHECK(span ==
          Approx(std::stod(runs.get(i, "time_s")) * std::stod(runs.get(i, "blocks"))).margin(0.05));
  }
  const std::string ctx = edp::testing::slurp(dir + "/out/context.json");
  CHECK_THAT(ctx, Catch::Contains("\"baselines\":[{"));
  CHECK_THAT(ctx, Catch::Contains("\"state\": \"host\""));
  CHECK_THAT(ctx, Catch::Contains("averaging over the measured update interval"));
}
