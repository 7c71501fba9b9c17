// Config loading: the shipped configs are valid, and every kind of error
// names the file, line and column (and exits 2 through the CLI).
#include <catch2/catch.hpp>

#include "bench/studies/config_schema.h"
#include "common/errors.h"
#include "support/config_error.h"
#include "support/process.h"

using namespace edp::bench;

namespace {
std::string error_of(const std::string& yaml) {
  return edp::testing::config_error(yaml, "test.yaml");
}
}  // namespace

TEST_CASE("the shipped configs load", "[config]") {
  for (const char* name : {"default", "paper", "quick", "tx2"}) {
    DYNAMIC_SECTION(name) {
      const Config c = load_config(std::string(EDPBENCH_CONFIGS "/") + name + ".yaml");
      CHECK(c.name == name);
      CHECK_FALSE(c.sizes.empty());
      CHECK_FALSE(c.devices.empty());
    }
  }
  const Config paper = load_config(EDPBENCH_CONFIGS "/paper.yaml");
  CHECK(paper.learning_rate == 1e-6);
  CHECK(paper.init_scale == 1.0);
  CHECK(paper.iterations == 500);
  CHECK(paper.runs == 10);
  REQUIRE(paper.sizes.size() == 3);
  CHECK(paper.sizes[2].d_in == 40000);
  CHECK(paper.sizes[1].gemm_flop_per_iteration() == Approx(4.68e9).epsilon(0.01));
}

TEST_CASE("config errors give file, line and column", "[config]") {
  CHECK(error_of("iterations: 10\nbogus: 1\n") ==
        "test.yaml:2:1: unknown key 'bogus' in the config (valid keys: name, iterations, runs, "
        "warmup_iterations, seed, learning_rate, init_scale, studies, workloads, sizes, devices, "
        "power, gpu, batch, stages, ops, deploy, operating_points, cooldown_s, max_start_temp_c, "
        "output)");
  CHECK_THAT(error_of("runs: many\n"),
             Catch::StartsWith("test.yaml:1:7: 'runs' must be an integer, got 'many'"));
  CHECK_THAT(error_of("runs: 0\n"), Catch::StartsWith("test.yaml:1:7: 'runs' = 0 is out of range"));
  CHECK_THAT(error_of("workloads: [tensors, resnet]\n"),
             Catch::StartsWith("test.yaml:1:22: unknown workload 'resnet' (valid: tensors, "
                               "autograd, custom_relu)"));
  CHECK_THAT(error_of("power:\n  source: magic\n"),
             Catch::StartsWith("test.yaml:2:11: 'source' = 'magic' is not valid"));
  CHECK_THAT(error_of("power:\n  ina226: {address: 0x20}\n"),
             Catch::StartsWith("test.yaml:2:21: 'address' = 0x20 is out of range [64, 79]"));
  CHECK_THAT(error_of("power:\n  ina226: {averages: 3}\n"),
             Catch::Contains("'averages' must be one of 1, 4, 16"));
  CHECK_THAT(error_of("devices:\n  - {kind: tpu}\n"),
             Catch::StartsWith("test.yaml:2:12: 'kind' = 'tpu' is not valid"));
  CHECK_THAT(error_of("devices:\n  - {kind: cpu, cpus: fast}\n"),
             Catch::StartsWith("test.yaml:2:23: 'cpus' = 'fast' is not valid"));
  CHECK_THAT(error_of("devices:\n  - {kind: gpu, threads: 2}\n"),
             Catch::StartsWith("test.yaml:2:17: unknown key 'threads' in a gpu device"));
  CHECK_THAT(error_of("sizes:\n  tiny: {n: 1, d_in: 2, h: 3}\n"), Catch::Contains("missing d_out"));
  CHECK_THAT(error_of("runs: [1\n"), Catch::StartsWith("test.yaml:2:1: YAML syntax error"));
  CHECK_THAT(error_of("power: {source: trace}\n"), Catch::Contains("power.trace.file is not set"));
}

TEST_CASE("filters reject unknown names and list the valid ones", "[config]") {
  Config c = load_config(EDPBENCH_CONFIGS "/paper.yaml");
  CHECK_THROWS_WITH(apply_filters(c, {}, {"huge"}, {}, 0, 0),
                    "unknown size 'huge' (this config has: small, medium, large)");
  apply_filters(c, {"autograd"}, {"small"}, {"cpu"}, 2, 7);
  CHECK(c.workloads == std::vector<std::string>{"autograd"});
  CHECK(c.sizes.size() == 1);
  CHECK(c.devices.size() == 1);
  CHECK(c.runs == 2);
  CHECK(c.iterations == 7);
}

TEST_CASE("to_yaml output loads back to the same config", "[config]") {
  const Config a = load_config(EDPBENCH_CONFIGS "/tx2.yaml");
  const Config b = parse_config(to_yaml(a), "roundtrip.yaml");
  CHECK(to_yaml(b) == to_yaml(a));
  CHECK(b.power.sampler_cpu == a.power.sampler_cpu);
  CHECK(b.devices[0].cpus == "a57");
}

TEST_CASE("the CLI exits 2 with file:line:column on a config error", "[config][cli]") {
  const std::string dir = edp::testing::temp_dir("cfg");
  const std::vector<std::pair<std::string, std::string>> cases{
      {"iterations: 5\nruns: 2\nwarmup: 3\n", "bad.yaml:3:1: unknown key 'warmup'"},
      {"runs: -1\n", "bad.yaml:1:7: 'runs' = -1 is out of range"},
      {"learning_rate: fast\n", "bad.yaml:1:16: 'learning_rate' must be a number"},
      {"sizes: {tiny: {n: 1, d_in: 1, h: 1, d_out: 1, extra: 2}}\n",
       "bad.yaml:1:47: unknown key 'extra' in size 'tiny'"},
      {"devices: [{kind: cpu}]\nworkloads: [mlp]\n", "bad.yaml:2:13: unknown workload 'mlp'"},
  };
  for (const auto& [yaml, expected] : cases) {
    edp::testing::write_text(dir + "/bad.yaml", yaml);
    const auto r = edp::testing::edpbench("run --config " + dir + "/bad.yaml --out " + dir + "/o");
    INFO(yaml << "\n-> " << r.err);
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Catch::Contains(expected));
  }
  const auto missing = edp::testing::edpbench("run --config " + dir + "/nope.yaml --out " + dir);
  CHECK(missing.exit_code == 2);
  CHECK_THAT(missing.err, Catch::Contains("cannot read config file"));
  const auto bad_size = edp::testing::edpbench(
      "run --config " EDPBENCH_CONFIGS "/quick.yaml --sizes huge --out " + dir + "/o2");
  CHECK(bad_size.exit_code == 2);
  CHECK_THAT(bad_size.err, Catch::Contains("unknown size 'huge'"));
}
