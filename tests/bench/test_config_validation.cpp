// Configs that were silently wrong (issue 20 item 5) are refused with their
// place; every error of a config is reported at once (issue 22 item 7); the
// key table drives parsing and to_yaml; cluster names come from the platform.
// Real YAML through yaml-cpp throughout.
#include <catch2/catch.hpp>

#include <dirent.h>

#include "bench/config/config_keys.h"
#include "bench/studies/config_schema.h"
#include "bench/studies/ops/ops_config.h"
#include "common/errors.h"
#include "platform/boards.h"
#include "support/config_error.h"
#include "support/process.h"

using namespace edp::bench;

namespace {
std::string validation_error_of(const std::string& yaml, const std::string& origin = "t.yaml") {
  return edp::testing::config_error(yaml, origin);
}

size_t lines(const std::string& s) {
  return s.empty() ? 0 : static_cast<size_t>(std::count(s.begin(), s.end(), '\n')) + 1;
}
}  // namespace

TEST_CASE("a key given twice is an error at its second place", "[config]") {
  // yaml-cpp keeps the first value: runs would have been 3, silently.
  CHECK(validation_error_of("runs: 3\niterations: 4\nruns: 5\n") ==
        "t.yaml:3:1: key 'runs' is given twice in the config (first at line 1); YAML would keep "
        "only the first value: remove one");
  CHECK_THAT(validation_error_of("power:\n  rate_hz: 10\n  rate_hz: 20\n"),
             Catch::StartsWith("t.yaml:3:3: key 'rate_hz' is given twice in power"));
  CHECK_THAT(validation_error_of("sizes:\n  a: {n: 1, d_in: 1, h: 1, d_out: 1}\n"
                                 "  a: {n: 2, d_in: 1, h: 1, d_out: 1}\n"),
             Catch::StartsWith("t.yaml:3:3: key 'a' is given twice in sizes"));
  CHECK_THAT(validation_error_of("devices: [{kind: cpu, threads: 1, threads: 2}]\n"),
             Catch::StartsWith("t.yaml:1:35: key 'threads' is given twice in a cpu device"));
}

TEST_CASE("a list entry given twice is an error at the repeat", "[config]") {
  CHECK(validation_error_of("workloads: [tensors, tensors]\n") ==
        "t.yaml:1:22: 'workloads' lists 'tensors' twice: remove the repeat");
  CHECK_THAT(validation_error_of("studies: [mlp, ops, mlp]\n"),
             Catch::StartsWith("t.yaml:1:21: 'studies'"));
  CHECK_THAT(validation_error_of("studies: [batch]\nbatch: {n: [1, 2, 1]}\n"),
             Catch::StartsWith("t.yaml:2:19: 'batch.n' lists 1 twice"));
  CHECK_THAT(validation_error_of("studies: [batch]\nbatch: {sizes: [small, small]}\n"),
             Catch::StartsWith("t.yaml:2:24: 'batch.sizes' lists 'small' twice"));
  CHECK_THAT(validation_error_of("ops: {bytes: [1MB, 1024KB]}\n"),
             Catch::StartsWith("t.yaml:1:20: 'ops.bytes' lists 1048576 bytes twice ('1MB' and "
                               "'1024KB')"));
  CHECK_THAT(validation_error_of("ops: {gemm_n: [64, 64]}\n"),
             Catch::Contains("'ops.gemm_n' lists 64 twice"));
  CHECK_THAT(validation_error_of("ops: {ops: [copy, copy]}\n"),
             Catch::Contains("'ops.ops' lists 'copy'"));
  CHECK_THAT(validation_error_of("power: {total_rails: [VDD_IN, VDD_IN]}\n"),
             Catch::Contains("'total_rails' lists 'VDD_IN' twice"));
  CHECK_THAT(validation_error_of(
                 "devices: [{kind: cpu, cpus: a57}, {kind: gpu}, {kind: cpu, cpus: a57}]\n"),
             Catch::StartsWith("t.yaml:1:48: this device is listed twice with the same settings"));
  // Two CPU devices that differ are two devices.
  CHECK(parse_config("devices: [{kind: cpu, threads: 1}, {kind: cpu, threads: 2}]\n", "t.yaml")
            .devices.size() == 2);
  // A long list of repeats reports a bounded number of lines.
  std::string many = "workloads: [";
  for (int i = 0; i < 2000; ++i) many += "tensors, ";
  many += "tensors]\n";
  CHECK(lines(validation_error_of(many)) == 51);
}

TEST_CASE("integers are decimal: octal and hex spellings are errors", "[config]") {
  // YAML 1.1 reads 010 as 8 (and so did strtoll with base 0).
  CHECK_THAT(validation_error_of("sizes: {s: {n: 010, d_in: 1, h: 1, d_out: 1}}\n"),
             Catch::StartsWith("t.yaml:1:16: 'n' must be an integer, got '010' (a leading zero "
                               "reads as octal in YAML 1.1"));
  CHECK_THAT(validation_error_of("runs: 0x10\n"),
             Catch::StartsWith("t.yaml:1:7: 'runs' must be an integer, got '0x10' (write it in "
                               "decimal)"));
  CHECK_THAT(validation_error_of("runs: 0o10\n"), Catch::Contains("'runs' must be an integer"));
  CHECK_THAT(validation_error_of("iterations: 1e3\n"),
             Catch::Contains("'iterations' must be an integer"));
  CHECK_THAT(validation_error_of("cooldown_s: 0x1p3\n"),
             Catch::Contains("'cooldown_s' must be a number"));
  CHECK_THAT(validation_error_of("cooldown_s: 010\n"), Catch::Contains("leading zero"));
  CHECK_THAT(validation_error_of("cooldown_s: .inf\n"), Catch::Contains("must be a number"));
  // Allowed: plain decimals, 0, negative where the range allows, an I2C address in hex.
  const Config c = parse_config(
      "runs: 10\nseed: 0\ncooldown_s: 0.5\npower: {sampler_cpu: -1, ina226: {address: 0x41}}\n",
      "t.yaml");
  CHECK(c.runs == 10);
  CHECK(c.power.ina226.address == 0x41);
  CHECK(c.cooldown_s == 0.5);
}

TEST_CASE("a second YAML document is an error", "[config]") {
  CHECK(validation_error_of("runs: 2\n---\nruns: 3\n") ==
        "t.yaml:2:1: a second YAML document ('---'): a config is one document; merge them or "
        "remove the separator");
  CHECK_THAT(validation_error_of(""),
             Catch::StartsWith("t.yaml:1:1: the config must be a mapping"));
}

TEST_CASE("power.timeline_max_rows stops where samples.csv still fits its readers' cap",
          "[config]") {
  // 1e7 rows of about 100 bytes is about 1 GB, under the 4 GiB that resume
  // and the report read; 1e9 rows was accepted and made a file neither reads.
  CHECK_THAT(validation_error_of("power: {timeline: true, timeline_max_rows: 20000000}\n"),
             Catch::Contains("t.yaml:1:44: 'timeline_max_rows' = 20000000 is out of range "
                             "[1000, 10000000]"));
  CHECK(validation_error_of("power: {timeline: true, timeline_max_rows: 10000000}\n") ==
        "<no error>");
}

TEST_CASE("every error of a config is reported at once, in file order", "[config]") {
  const std::string e = validation_error_of(
      "runs: -1\nworkloads: [tensors, resnet]\npower: {source: magic, rate_hz: 0}\n"
      "devices: [{kind: cpu, threads: many}, {kind: tpu}]\nbogus: 1\n");
  INFO(e);
  CHECK(lines(e) == 7);
  CHECK_THAT(e, Catch::StartsWith("t.yaml:1:7: 'runs' = -1 is out of range [1, 100000]\n"
                                  "t.yaml:2:22: unknown workload 'resnet'"));
  CHECK_THAT(e, Catch::Contains("\nt.yaml:3:17: 'source' = 'magic' is not valid"));
  CHECK_THAT(e, Catch::Contains("\nt.yaml:3:33: 'rate_hz' = 0 is out of range"));
  CHECK_THAT(e, Catch::Contains("\nt.yaml:4:32: 'threads' must be an integer"));
  CHECK_THAT(e, Catch::Contains("\nt.yaml:4:46: 'kind' = 'tpu' is not valid"));
  CHECK_THAT(e, Catch::EndsWith("\nt.yaml:5:1: unknown key 'bogus' in the config (valid keys: "
                                "name, iterations, runs, warmup_iterations, seed, learning_rate, "
                                "init_scale, studies, workloads, sizes, devices, power, gpu, "
                                "batch, stages, ops, deploy, operating_points, cooldown_s, "
                                "max_start_temp_c, output)"));
}

TEST_CASE("cpus: takes every cluster the platform layer knows", "[config]") {
  const std::vector<std::string> names = edp::platform::cpu_cluster_names();
  for (const char* name : {"a57", "denver", "carmel", "a78ae", "a55", "x86"})
    CHECK(std::find(names.begin(), names.end(), name) != names.end());
  for (const auto& name : names) {
    DYNAMIC_SECTION(name) {
      const Config c = parse_config("devices: [{kind: cpu, cpus: " + name + "}]\n", "t.yaml");
      CHECK(c.devices[0].cpus == name);
      CHECK(c.at("devices.cpu.cpus") == "t.yaml:1:29");
    }
  }
  CHECK_THAT(validation_error_of("devices: [{kind: cpu, cpus: bigcores}]\n"),
             Catch::Contains("expected all, a cluster name (a57, denver"));
}

TEST_CASE("a trace file that is missing or a directory is refused with its place", "[config]") {
  const std::string dir = edp::testing::temp_dir("cfgtrace");
  CHECK_THAT(
      validation_error_of("power:\n  source: trace\n  trace: {file: none.csv}\n", dir + "/c.yaml"),
      Catch::StartsWith(dir + "/c.yaml:3:17: trace file '" + dir +
                        "/none.csv' cannot be read (No such file or directory)"));
  CHECK_THAT(validation_error_of("power: {source: trace, trace: {file: /tmp}}\n"),
             Catch::StartsWith("t.yaml:1:38: trace file '/tmp' is not a regular file"));
  edp::testing::write_text(dir + "/ok.csv", "t_s,a_w\n0,1\n1,1\n");
  CHECK(parse_config("power: {source: trace, trace: {file: ok.csv}}\n", dir + "/c.yaml")
            .power.trace.file == dir + "/ok.csv");
}

TEST_CASE("command-line values go through the config's key table", "[config]") {
  Config c = parse_config("name: x\n", "t.yaml");
  CHECK_THROWS_WITH(set_config_list(c, "ops.gemm_n", {"0"}, "--gemm-n"),
                    "--gemm-n 0: 'ops.gemm_n' = 0 is out of range [1, 65536]");
  CHECK_THROWS_WITH(set_config_list(c, "ops.gemm_n", {"100000"}, "--gemm-n"),
                    "--gemm-n 100000: 'ops.gemm_n' = 100000 is out of range [1, 65536]");
  CHECK_THROWS_WITH(set_config_list(c, "ops.gemm_n", {"010"}, "--gemm-n"),
                    Catch::Contains("must be an integer, got '010'"));
  CHECK_THROWS_WITH(set_config_list(c, "ops.ops", {"copy", "fft"}, "--ops"),
                    Catch::StartsWith("--ops copy,fft: unknown op 'fft'"));
  CHECK_THROWS_WITH(set_config_value(c, "ops.runs", "0", "--runs"),
                    "--runs 0: 'ops.runs' = 0 is out of range [1, 100000]");
  // --runs of `run` was checked against 1..1e8 while the config allows 1..1e5.
  CHECK_THROWS_WITH(apply_filters(c, {}, {}, {}, 200000, 0),
                    "--runs 200000: 'runs' = 200000 is out of range [1, 100000]");
  set_config_list(c, "ops.gemm_n", {"64", "128"}, "--gemm-n");
  CHECK(c.section<OpsConfig>().gemm_n == std::vector<int64_t>{64, 128});
}

TEST_CASE("the key table: every key is read, written and read back", "[config]") {
  // A config that sets every key of the table to a non-default value.
  const std::string every =
      "name: full\niterations: 3\nruns: 4\nwarmup_iterations: 0\nseed: 99\nlearning_rate: 0.3\n"
      "init_scale: 2\nstudies: [mlp, batch, stages, ops, deploy]\nworkloads: [autograd]\n"
      "sizes:\n  a: {n: 2, d_in: 3, h: 4, d_out: 5}\n  b: {n: 7, d_in: 3, h: 4, d_out: 5}\n"
      "devices:\n  - {kind: cpu, threads: 2, cpus: 0-1, gemm: eigen}\n  - {kind: gpu, index: 1}\n"
      "  - {kind: reference}\n"
      "power:\n  source: simulated\n  rate_hz: 250.5\n  total_rails: [A, B]\n  baseline_s: 0.3\n"
      "  baseline_every: 3\n  min_run_s: auto\n  sampler_cpu: 1\n  settle_s: 2\n"
      "  timeline: true\n  timeline_hz: 50\n  timeline_max_rows: 5000\n"
      "  ina226: {bus: /dev/i2c-1, address: 65, shunt_ohm: 0.01, max_current_a: 3, averages: "
      "16, conversion_us: 1100, poll_ready: true, force: true}\n"
      "  trace: {file: /x.csv, loop: false}\n"
      "  simulated: {idle_w: 3, cpu_w: 5, sleep_after_s: 0.2, sleep_w: 1, wake_j: 0.4, "
      "busy_cpu_s: 0.001}\n"
      "gpu: {relu: cudnn, sync: spin}\nbatch: {sizes: [b], n: [1, 3]}\nstages: {sizes: [a]}\n"
      "ops: {ops: [copy, gemm], bytes: [1KB, 2MB], gemm_n: [], cold: false, steps: 3, runs: 2, "
      "max_runs: 4, max_rel_ci: 0.05, time_limit_s: 2.5, min_run_s: 0.1}\n"
      "deploy: {sizes: [a], modes: [infer], batches: [2], wake_after_s: [0.5], wake_repeats: 3, "
      "idle_s: 1, bursts: 200, train_bursts: 5, release: false, check_rates_hz: [1.5], "
      "check_s: 30, arrivals: periodic}\n"
      "operating_points:\n  - {name: p, nvpmodel: 1, cpu_max_khz: 100, gpu_min_hz: 5, "
      "cpus_online: 0, cpu_governor: performance}\n  - {name: q}\n"
      "cooldown_s: 1.5\nmax_start_temp_c: 60\noutput: {dir: out}\n";
  const Config c = parse_config(every, "every.yaml");
  // to_yaml writes the table's order and forms (the text --resume compares).
  CHECK(to_yaml(c) == every);
  CHECK(to_yaml(parse_config(to_yaml(c), "again.yaml")) == every);
  // Every key of the table was given in `every` and recorded where.
  for (const auto& k : config_schema().keys) {
    INFO(k.path);
    CHECK(c.where.count(k.path) == 1);
    CHECK_FALSE(k.doc.empty());
  }
  CHECK(c.power.ina226.force);
  CHECK(c.section<OpsConfig>().gemm_n.empty());
  CHECK(c.operating_points.size() == 2);
}

TEST_CASE("every file in configs/ loads and round-trips", "[config]") {
  DIR* d = ::opendir(EDPBENCH_CONFIGS);
  REQUIRE(d != nullptr);
  int n = 0;
  while (const dirent* e = ::readdir(d)) {
    const std::string name = e->d_name;
    if (name.size() < 6 || name.substr(name.size() - 5) != ".yaml") continue;
    INFO(name);
    const Config c = load_config(std::string(EDPBENCH_CONFIGS "/") + name);
    CHECK(to_yaml(parse_config(to_yaml(c), "rt.yaml")) == to_yaml(c));
    ++n;
  }
  ::closedir(d);
  CHECK(n >= 5);
}
