// Bad inputs at the command line (issue 20 items 3, 5, 8; issue 22 item 7):
// each is exit 2 with a message that names the file, line and column or the
// option, and every problem is reported at once.
#include <catch2/catch.hpp>

#include <chrono>

#include "support/process.h"

using edp::testing::edpbench;
using edp::testing::write_text;

namespace {
const std::string kCgroupV2 = EDPBENCH_FIXTURES "/bench/memory/cgroup-v2";
}

TEST_CASE("run and plan report every config error at once", "[cli][config]") {
  const std::string dir = edp::testing::temp_dir("cli-input");
  write_text(dir + "/c.yaml", "runs: -1\nworkloads: [tensors, resnet]\nn: 1\n");
  for (const char* cmd : {"run", "plan"}) {
    const std::string out = std::string(cmd) == "run" ? " --out " + dir + "/o" : "";
    const auto r = edpbench(std::string(cmd) + " --config " + dir + "/c.yaml" + out);
    INFO(cmd << ": " << r.err);
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Catch::Contains(dir + "/c.yaml:1:7: 'runs' = -1 is out of range"));
    CHECK_THAT(r.err, Catch::Contains(dir + "/c.yaml:2:22: unknown workload 'resnet'"));
    CHECK_THAT(r.err, Catch::Contains(dir + "/c.yaml:3:1: unknown key 'n'"));
  }
}

TEST_CASE("CPU sets this machine lacks name the config's line and column", "[cli][config]") {
  const std::string dir = edp::testing::temp_dir("cli-cpus");
  write_text(dir + "/c.yaml",
             "power: {source: none}\nworkloads: [tensors]\n"
             "sizes: {t: {n: 2, d_in: 4, h: 4, d_out: 2}}\n"
             "devices:\n  - {kind: cpu, cpus: \"4000\"}\n  - {kind: cpu, cpus: \"0-999999999\"}\n"
             "  - {kind: cpu, cpus: carmel}\n");
  const auto plan = edpbench("plan --no-calibrate --config " + dir + "/c.yaml");
  CHECK(plan.exit_code == 2);
  CHECK_THAT(plan.err, Catch::Contains(dir + "/c.yaml:5:23: device cpu: cpus \"4000\""));
  CHECK_THAT(plan.err, Catch::Contains(dir + "/c.yaml:6:23: device cpu#2: cpus \"0-999999999\""));
  CHECK_THAT(plan.err, Catch::Contains(dir + "/c.yaml:7:23: device cpu#3: cpus \"carmel\": this "
                                             "machine has no carmel cores"));
  const auto run = edpbench("run --config " + dir + "/c.yaml --out " + dir + "/o");
  CHECK(run.exit_code == 2);
  CHECK_THAT(run.err, Catch::Contains(dir + "/c.yaml:5:23:"));
  CHECK_THAT(run.err, Catch::Contains(dir + "/c.yaml:7:23:"));
}

TEST_CASE("sizes beyond the memory limit: plan and run exit 2 before any work", "[cli][memory]") {
  const std::string dir = edp::testing::temp_dir("cli-mem");
  write_text(dir + "/c.yaml",
             "power: {source: none}\nworkloads: [tensors]\ndevices: [{kind: reference}]\n"
             "sizes:\n  big: {n: 8192, d_in: 40000, h: 600, d_out: 400}\n");
  const std::string args = " --config " + dir + "/c.yaml --sysfs-root " + kCgroupV2;
  const auto plan = edpbench("plan --no-calibrate --json " + dir + "/p.json" + args);
  CHECK(plan.exit_code == 2);
  const std::string expected =
      dir +
      "/c.yaml:5:3: mlp tensors size big (N=8192) on reference needs 2951937028 bytes "
      "(2815.2 MiB: 2791.2 MiB of tensors and host copies, 24.0 MiB for the run itself), more "
      "than the 1610612736 bytes (1536.0 MiB) this process may use "
      "(cgroup /system.slice/edpbench.service: limit 2048.0 MiB less 512.0 MiB in use)";
  CHECK_THAT(plan.err, Catch::Contains(expected));
  CHECK_THAT(edp::testing::slurp(dir + "/p.json"), Catch::Contains(expected));
  const auto run = edpbench("run --out " + dir + "/o" + args);
  CHECK(run.exit_code == 2);
  CHECK_THAT(run.err, Catch::Contains(expected));
  CHECK(edp::testing::run("test -e " + dir + "/o").exit_code != 0);
}

TEST_CASE("command-line values: the config's ranges, exit 2", "[cli][config]") {
  const std::string dir = edp::testing::temp_dir("cli-values");
  const std::vector<std::pair<std::string, std::string>> cases{
      {"ops --gemm-n 0", "--gemm-n 0: 'ops.gemm_n' = 0 is out of range [1, 65536]"},
      {"ops --gemm-n 100000", "--gemm-n 100000: 'ops.gemm_n' = 100000 is out of range"},
      {"ops --bytes 1MB,1024KB", "'ops.bytes' lists 1048576 bytes twice"},
      {"ops --ops copy,fft", "unknown op 'fft'"},
      {"ops --runs 0", "--runs 0: 'ops.runs' = 0 is out of range"},
      {"ops --power-source magic", "--power-source magic: 'source' = 'magic' is not valid"},
      {"ops --trace /tmp", "--trace: trace file '/tmp' is not a regular file"},
      {"run --config " EDPBENCH_CONFIGS "/quick.yaml --runs 200000",
       "--runs 200000: 'runs' = 200000 is out of range [1, 100000]"},
  };
  for (const auto& [args, expected] : cases) {
    const auto r = edpbench(args + " --out " + dir + "/o");
    INFO(args << " -> " << r.err);
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Catch::Contains(expected));
  }
}

TEST_CASE("recommend, plan --json: files that cannot be right are exit 2 at once", "[cli]") {
  const std::string dir = edp::testing::temp_dir("cli-files");
  const auto t0 = std::chrono::steady_clock::now();
  const auto zero =
      edp::testing::run("timeout 20 " + std::string(EDPBENCH_BINARY) + " recommend /dev/zero");
  CHECK(zero.exit_code == 2);  // 124 when it reads forever
  CHECK_THAT(zero.err, Catch::Contains("/dev/zero: not read: it is a character device"));
  CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(15));
  const auto no_results = edpbench("recommend " + dir);  // a sweep directory, as in report
  CHECK(no_results.exit_code == 2);
  CHECK_THAT(no_results.err, Catch::Contains("no results.csv in " + dir));
  write_text(dir + "/results.csv", "");
  const auto empty = edpbench("recommend " + dir + "/results.csv");
  CHECK(empty.exit_code == 2);
  CHECK_THAT(empty.err, Catch::Contains("results.csv is empty"));
  const auto json = edpbench("plan --no-calibrate --config " EDPBENCH_CONFIGS
                             "/quick.yaml --json /nonexistent/x");
  CHECK(json.exit_code == 2);
  CHECK_THAT(json.err, Catch::Contains("--json /nonexistent/x: the directory '/nonexistent/' "
                                       "does not exist"));
}
