// End-to-end CLI behaviour: run on quick.yaml with tiny sizes, dump checked
// by an independent NumPy implementation, --version and --help.
#include <yaml-cpp/yaml.h>
#include <catch2/catch.hpp>

#include "report/csv.h"
#include "report/results_csv.h"
#include "support/process.h"

using edp::testing::edpbench;

namespace {

const std::vector<std::string> kRequired{"workload",
                                         "size",
                                         "n",
                                         "d_in",
                                         "h",
                                         "d_out",
                                         "device",
                                         "threads",
                                         "iterations",
                                         "runs",
                                         "status",
                                         "time_s_mean",
                                         "time_s_std",
                                         "time_s_ci95",
                                         "energy_j_mean",
                                         "energy_j_std",
                                         "energy_j_ci95",
                                         "dynamic_energy_j_mean",
                                         "power_w_mean",
                                         "edp_js_mean",
                                         "edp_js_std",
                                         "power_source",
                                         "energy_rails",
                                         "samples_per_run",
                                         "final_loss",
                                         "diverged",
                                         "note"};

// quick.yaml with its sizes replaced by tiny ones and the power source set.
std::string tiny_quick(const std::string& dir, const std::string& source = "none") {
  YAML::Node cfg = YAML::LoadFile(EDPBENCH_CONFIGS "/quick.yaml");
  YAML::Node sizes;
  sizes["tiny"]["n"] = 4;
  sizes["tiny"]["d_in"] = 32;
  sizes["tiny"]["h"] = 8;
  sizes["tiny"]["d_out"] = 3;
  sizes["mini"]["n"] = 8;
  sizes["mini"]["d_in"] = 64;
  sizes["mini"]["h"] = 16;
  sizes["mini"]["d_out"] = 4;
  cfg["sizes"] = sizes;
  cfg["iterations"] = 5;
  cfg["runs"] = 2;
  cfg["power"]["source"] = source;
  cfg["power"]["baseline_s"] = 0;
  YAML::Emitter e;
  e << cfg;
  const std::string path = dir + "/tiny.yaml";
  edp::testing::write_text(path, e.c_str());
  return path;
}

}  // namespace

TEST_CASE("run on quick.yaml with tiny sizes writes one row per configuration", "[cli][run]") {
  const std::string dir = edp::testing::temp_dir("run");
  const std::string cfg = tiny_quick(dir);
  const auto r = edpbench("run --config " + cfg + " --out " + dir + "/out");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);

  const auto results = edp::report::read_csv_file(dir + "/out/results.csv");
  REQUIRE(results.header.size() >= kRequired.size());
  CHECK(std::vector<std::string>(results.header.begin(),
                                 results.header.begin() + kRequired.size()) == kRequired);
  const YAML::Node q = YAML::LoadFile(EDPBENCH_CONFIGS "/quick.yaml");
  const size_t configs = q["workloads"].size() * 2 * q["devices"].size();
  CHECK(results.rows.size() == configs);
  size_t ok = 0;
  for (size_t i = 0; i < results.rows.size(); ++i) {
    const std::string status = results.get(i, "status");
    INFO(results.get(i, "workload") << "/" << results.get(i, "size") << "/"
                                    << results.get(i, "device") << ": " << results.get(i, "note"));
    if (results.get(i, "device") == "cpu") {
      CHECK(status == "ok");
      CHECK(std::stod(results.get(i, "time_s_mean")) > 0);
      CHECK(results.get(i, "energy_j_mean").empty());  // source none: nothing measured
      CHECK(results.get(i, "power_source") == "none");
      CHECK(results.get(i, "diverged") == "false");
      ++ok;
    } else if (status == "skipped") {
      CHECK_THAT(results.get(i, "note"), Catch::Contains("unavailable"));
    }
  }
  const auto runs = edp::report::read_csv_file(dir + "/out/runs.csv");
  CHECK(runs.header == edp::report::runs_columns());
  CHECK(runs.rows.size() >= ok * 2);
  const std::string ctx = edp::testing::slurp(dir + "/out/context.json");
  CHECK_THAT(ctx, Catch::Contains("\"edpbench_version\""));
  CHECK_THAT(ctx, Catch::Contains("\"gemm_path\""));
  CHECK_THAT(ctx, Catch::Contains("\"complete\": true"));

  // A second run into the same directory must not overwrite the results.
  const auto again = edpbench("run --config " + cfg + " --out " + dir + "/out");
  CHECK(again.exit_code == 2);
  CHECK_THAT(again.err, Catch::Contains("--resume"));
}

TEST_CASE("paper.yaml's setting is flagged as diverged", "[cli][run]") {
  const std::string dir = edp::testing::temp_dir("paper");
  const auto r = edpbench("run --config " EDPBENCH_CONFIGS
                          "/paper.yaml --sizes small --devices cpu "
                          "--workloads tensors --runs 1 --iterations 10 --out " +
                          dir + "/out");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const auto results = edp::report::read_csv_file(dir + "/out/results.csv");
  REQUIRE(results.rows.size() == 1);
  CHECK(results.get(0, "diverged") == "true");
  CHECK_THAT(results.get(0, "note"), Catch::Contains("diverged"));
}

TEST_CASE("dump writes npy tensors whose NumPy training loss matches loss.csv", "[cli][dump]") {
  const std::string dir = edp::testing::temp_dir("dump");
  const std::string cfg = tiny_quick(dir);
  for (const std::string w : {"tensors", "custom_relu"}) {
    const auto r = edpbench("dump --config " + cfg + " --workload " + w +
                            " --size mini --iterations 6 --out " + dir + "/" + w);
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    const auto loss = edp::report::read_csv_file(dir + "/" + w + "/loss.csv");
    CHECK(loss.header == std::vector<std::string>{"iteration", "loss"});
    CHECK(loss.rows.size() == 6);
  }
  if (edp::testing::run("/usr/bin/python3 -c 'import numpy'").exit_code != 0) {
    WARN("skipped the NumPy cross-check: /usr/bin/python3 with numpy is not installed");
    return;
  }
  const YAML::Node q = YAML::LoadFile(cfg);
  const std::string lr = q["learning_rate"].as<std::string>();
  // The tutorial's program in NumPy (float64), from the dumped tensors.
  const std::string py =
      "import numpy as np, csv, sys\n"
      "d = sys.argv[1]; lr = float(sys.argv[2])\n"
      "x, y, w1, w2 = (np.load(f'{d}/{n}.npy').astype(np.float64) for n in ('x','y','w1','w2'))\n"
      "ref = [float(r['loss']) for r in csv.DictReader(open(f'{d}/loss.csv'))]\n"
      "for i, want in enumerate(ref):\n"
      "    h = x @ w1; hr = np.maximum(h, 0); yp = hr @ w2\n"
      "    loss = ((yp - y) ** 2).sum()\n"
      "    assert abs(loss - want) <= 1e-4 * abs(loss), (i, loss, want)\n"
      "    g = 2 * (yp - y); gw2 = hr.T @ g; gh = g @ w2.T; gh[h < 0] = 0; gw1 = x.T @ gh\n"
      "    w1 -= lr * gw1; w2 -= lr * gw2\n"
      "print('ok', len(ref))\n";
  edp::testing::write_text(dir + "/check.py", py);
  for (const std::string w : {"tensors", "custom_relu"}) {
    const auto r =
        edp::testing::run("/usr/bin/python3 " + dir + "/check.py " + dir + "/" + w + " " + lr);
    INFO(w << ": " << r.err);
    CHECK(r.exit_code == 0);
    CHECK(r.out == "ok 6\n");
  }
}

TEST_CASE("the version flag and every subcommand's help work", "[cli]") {
  const auto v = edpbench("--version");
  CHECK(v.exit_code == 0);
  CHECK_THAT(v.out, Catch::Matches("edpbench [0-9]+\\.[0-9]+\\.[0-9]+\\s*"));
  for (const char* sub : {"run", "sensors", "recommend", "report", "probe", "dump"}) {
    const auto h = edpbench(std::string(sub) + " --help");
    INFO(sub << ": " << h.err);
    CHECK(h.exit_code == 0);
    CHECK_THAT(h.out, Catch::Contains("Usage") || Catch::Contains("usage"));
  }
  const auto bad = edpbench("frobnicate");
  CHECK(bad.exit_code == 2);
}
