// A whole sweep against a fake Jetson TX2: the platform fixture (device tree,
// L4T R32.7.1, nvpmodel, A57/Denver cpuinfo, devfreq, thermal) and the
// JetPack 4 INA3221 fixture (ina3221x iio rails) merged under one
// --sysfs-root, with configs/tx2.yaml shrunk to tiny sizes.
#include <yaml-cpp/yaml.h>
#include <catch2/catch.hpp>

#include <filesystem>
#include <set>

#include "report/csv.h"
#include "support/process.h"

namespace fs = std::filesystem;

TEST_CASE("tx2.yaml on a fake TX2 measures VDD_IN energy and names the board", "[cli][tx2]") {
  const std::string dir = edp::testing::temp_dir("tx2");
  const std::string root = dir + "/root";
  const auto opts = fs::copy_options::recursive | fs::copy_options::copy_symlinks |
                    fs::copy_options::overwrite_existing;
  fs::copy(EDPBENCH_FIXTURES "/platform/tx2", root, opts);
  fs::copy(EDPBENCH_FIXTURES "/power/tx2-jp4", root, opts);

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
  cfg["power"]["min_run_s"] = 0.3;
  cfg["power"]["baseline_s"] = 0.2;
  cfg["cooldown_s"] = 0;
  cfg["max_start_temp_c"] = 0;
  YAML::Emitter e;
  e << cfg;
  edp::testing::write_text(dir + "/tx2.yaml", e.c_str());

  const auto r = edp::testing::edpbench("run --config " + dir + "/tx2.yaml --sysfs-root " + root +
                                        " --out " + dir + "/out");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const auto results = edp::report::read_csv_file(dir + "/out/results.csv");
  REQUIRE(results.rows.size() == 2);
  CHECK(results.get(0, "status") == "ok");
  CHECK(results.get(0, "power_source") == "jetson");
  CHECK(results.get(0, "energy_rails") == "VDD_IN");
  // The fixture's VDD_IN reads 1929 mW and never changes.
  CHECK(std::stod(results.get(0, "power_w_mean")) == Approx(1.929).epsilon(1e-6));
  CHECK(std::stod(results.get(0, "energy_j_mean")) ==
        Approx(1.929 * std::stod(results.get(0, "time_s_mean"))).epsilon(0.01));
  CHECK(results.get(1, "device") == "gpu");
  // A machine with a usable GPU runs the row; one without skips it and says why.
  const std::string gpu_status = results.get(1, "status");
  INFO("gpu row: status " << gpu_status << ", note: " << results.get(1, "note"));
  CHECK((gpu_status == "ok" || gpu_status == "skipped"));
  if (gpu_status == "skipped") CHECK_FALSE(results.get(1, "note").empty());

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
