// `studies: [stages]` end to end on the CPU with a constant-power trace:
// stages.csv and memory.csv, energy per stage = power x time difference, and
// resume of an interrupted stages sweep.
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>
#include <catch2/catch.hpp>

#include <chrono>
#include <cmath>
#include <set>
#include <thread>

#include "report/csv.h"
#include "support/csv.h"
#include "support/process.h"

extern char** environ;

using edp::testing::edpbench;

using edp::testing::num;
using edp::testing::rows_in;

namespace {

std::string stages_config(const std::string& dir, const std::string& workloads, int iterations,
                          const std::string& devices = "[{kind: cpu, threads: 1}]") {
  const std::string path = dir + "/stages.yaml";
  edp::testing::write_text(
      path, "name: stages-test\nstudies: [stages]\nstages: {sizes: [tiny]}\niterations: " +
                std::to_string(iterations) +
                "\nruns: 3\nwarmup_iterations: 1\n"
                "learning_rate: 1.0e-5\ninit_scale: 0.5\nworkloads: [" +
                workloads +
                "]\n"
                "sizes: {tiny: {n: 8, d_in: 2000, h: 32, d_out: 4}}\n"
                "devices: " +
                devices +
                "\n"
                "power:\n  source: trace\n  trace: {file: " EDPBENCH_FIXTURES
                "/cli/constant_7w5.csv}\n  total_rails: [VDD_IN]\n  baseline_s: 0.2\n"
                "  min_run_s: 0.15\n");
  return path;
}

size_t row_of(const edp::report::CsvTable& t, const std::string& workload,
              const std::string& stage) {
  for (size_t r = 0; r < t.rows.size(); ++r)
    if (t.get(r, "workload") == workload && t.get(r, "stage") == stage) return r;
  FAIL("no row " << workload << "/" << stage);
  return 0;
}

}  // namespace

TEST_CASE("stages on a constant trace: energy differences are power x time differences",
          "[cli][stages]") {
  const std::string dir = edp::testing::temp_dir("stages");
  const auto r =
      edpbench("run --config " + stages_config(dir, "tensors", 20) + " --out " + dir + "/out");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const auto stages = edp::report::read_csv_file(dir + "/out/stages.csv");
  REQUIRE(stages.rows.size() == 7);
  const auto runs = edp::report::read_csv_file(dir + "/out/runs.csv");
  REQUIRE(runs.rows.size() == 9);  // 3 parts x 3 runs
  // Mean time per step of each part, from runs.csv.
  std::map<std::string, double> t;
  for (size_t i = 0; i < runs.rows.size(); ++i) {
    const std::string part = runs.get(i, "workload");
    t[part] += num(runs, i, "time_s") / 20 / 3;
    CHECK(num(runs, i, "energy_j") == Approx(7.5 * num(runs, i, "time_s")).epsilon(0.01));
  }
  REQUIRE(t.size() == 3);
  auto energy = [&](const std::string& stage) {
    return num(stages, row_of(stages, "tensors", stage), "energy_j");
  };
  const double tol = 0.02 * 7.5 * t["step"];
  CHECK(energy("forward") == Approx(7.5 * t["forward"]).margin(tol));
  CHECK(energy("backward") == Approx(7.5 * (t["forward_backward"] - t["forward"])).margin(tol));
  CHECK(energy("update") == Approx(7.5 * (t["step"] - t["forward_backward"])).margin(tol));
  CHECK(energy("step") == Approx(7.5 * t["step"]).margin(tol));
  for (size_t i = 0; i < stages.rows.size(); ++i) {
    CHECK(stages.get(i, "status") == "ok");
    CHECK(stages.get(i, "study") == "stages");
    CHECK(stages.get(i, "key") == "stages:workload=tensors,size=tiny,device=cpu");
  }
  double share = 0;
  for (const char* s : {"forward", "backward", "update", "loss_readback"})
    share += num(stages, row_of(stages, "tensors", s), "share");
  CHECK(share == Approx(1.0));
  CHECK(num(stages, row_of(stages, "tensors", "step"), "time_s_profiled") > 0);
  // The measured peak (fma_peak on the item's CPUs, after the windows) is
  // there, so the step row's efficiency over it is a positive number. Not
  // bounded by 1 here: under ASan the FMA chains live in instrumented stack
  // memory and run at half the GEMM's rate (1.96 seen), and under qemu the
  // two emulate at different speeds.
  const size_t step_row = row_of(stages, "tensors", "step");
  const double ce_measured = num(stages, step_row, "compute_efficiency_measured");
  CHECK(std::isfinite(ce_measured));
  CHECK(ce_measured > 0);
  const auto memory = edp::report::read_csv_file(dir + "/out/memory.csv");
  REQUIRE(memory.rows.size() == 11);  // 10 tensors + total
  CHECK(memory.get(10, "tensor") == "total");
  CHECK(memory.get(10, "bytes_measured") == memory.get(10, "bytes_computed"));
  // results.csv belongs to the mlp study: no stages rows there.
  CHECK(edp::report::read_csv_file(dir + "/out/results.csv").rows.empty());
}

TEST_CASE("the reference backend has no measured peak: compute_efficiency_measured stays empty",
          "[cli][stages]") {
  // Its fma_peak is a sequential baseline of scalar chains, not a peak; a
  // ratio to it would look like an efficiency and mean nothing.
  const std::string dir = edp::testing::temp_dir("stages-ref");
  const auto r =
      edpbench("run --config " + stages_config(dir, "tensors", 5, "[{kind: reference}]") +
               " --out " + dir + "/out");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const auto stages = edp::report::read_csv_file(dir + "/out/stages.csv");
  REQUIRE(stages.rows.size() == 7);
  for (size_t i = 0; i < stages.rows.size(); ++i) {
    CHECK(stages.get(i, "status") == "ok");
    CHECK(stages.get(i, "compute_efficiency_measured").empty());
  }
}

TEST_CASE("an interrupted stages sweep resumes without duplicates", "[cli][stages][resume]") {
  const std::string dir = edp::testing::temp_dir("stages-resume");
  const std::string cfg = stages_config(dir, "tensors, autograd, custom_relu", 20);
  const std::string out = dir + "/out";
  const std::string bin = EDPBENCH_BINARY;
  std::vector<std::string> args{bin, "run", "--config", cfg, "--out", out};
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
  pid_t pid = -1;
  REQUIRE(posix_spawn(&pid, bin.c_str(), &fa, nullptr, argv.data(), environ) == 0);
  posix_spawn_file_actions_destroy(&fa);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  while (rows_in(out + "/stages.csv") < 7 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  ::kill(pid, SIGTERM);
  int status = 0;
  ::waitpid(pid, &status, 0);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 143);
  const size_t done = rows_in(out + "/stages.csv") / 7;
  CHECK(done >= 1);
  CHECK(done < 3);
  CHECK(rows_in(out + "/runs.csv") == done * 9);

  const auto r = edpbench("run --config " + cfg + " --out " + out + " --resume");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const auto stages = edp::report::read_csv_file(out + "/stages.csv");
  CHECK(stages.rows.size() == 21);
  std::set<std::string> keys;
  for (size_t i = 0; i < stages.rows.size(); ++i) keys.insert(stages.get(i, "key"));
  CHECK(keys.size() == 3);
  CHECK(rows_in(out + "/runs.csv") == 27);
  CHECK(rows_in(out + "/memory.csv") == 11 + 2 * 24);
}
