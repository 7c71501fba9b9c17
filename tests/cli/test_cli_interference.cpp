// Interference (DESIGN §3): a run that shares its CPU with a busy neighbour
// is flagged `disturbed` in runs.csv and results.csv, and `run` warns at the
// start that the machine is busy, naming the neighbour.
#include <catch2/catch.hpp>

#include <sched.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <string>

#include "platform/cpu_activity.h"
#include "report/csv.h"
#include "support/process.h"

namespace {

int first_allowed_cpu() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) != 0) return 0;
  for (int c = 0; c < CPU_SETSIZE; ++c)
    if (CPU_ISSET(c, &set)) return c;
  return 0;
}

// A process that spins on `cpu` until it is killed.
pid_t spin_on(int cpu) {
  const pid_t pid = fork();
  if (pid == 0) {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    sched_setaffinity(0, sizeof set, &set);
    const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(120);
    volatile unsigned x = 0;
    while (std::chrono::steady_clock::now() < end) x = x + 1;
    _exit(0);
  }
  return pid;
}

}  // namespace

TEST_CASE("a run sharing its CPU with a busy neighbour is flagged disturbed",
          "[cli][interference]") {
  if (!edp::platform::ActivityProbe().snapshot().schedstat_available) {
    WARN("skipped: /proc/self/task/*/schedstat is not readable here");
    return;
  }
  const int cpu = first_allowed_cpu();
  const std::string dir = edp::testing::temp_dir("busy");
  const std::string cfg = dir + "/busy.yaml";
  edp::testing::write_text(cfg,
                           "name: busy\niterations: 20\nruns: 3\nwarmup_iterations: 1\n"
                           "learning_rate: 1.0e-5\ninit_scale: 0.5\nworkloads: [tensors]\n"
                           "sizes: {tiny: {n: 8, d_in: 2000, h: 32, d_out: 4}}\n"
                           "devices: [{kind: cpu, threads: 1, cpus: \"" +
                               std::to_string(cpu) +
                               "\"}]\n"
                               "power:\n  source: trace\n  trace: {file: " EDPBENCH_FIXTURES
                               "/cli/constant_7w5.csv}\n  baseline_s: 0\n  min_run_s: 0.3\n");
  const pid_t neighbour = spin_on(cpu);
  REQUIRE(neighbour > 0);
  const auto r = edp::testing::edpbench("run --config " + cfg + " --out " + dir + "/out");
  kill(neighbour, SIGKILL);
  waitpid(neighbour, nullptr, 0);
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.err, Catch::Contains("the machine is busy"));
  // (Which processes it names depends on what else runs: the unit test
  // machine_load_names_a_busy_neighbour checks the naming.)
  const auto runs = edp::report::read_csv_file(dir + "/out/runs.csv");
  REQUIRE(runs.rows.size() == 3);
  for (size_t i = 0; i < runs.rows.size(); ++i) {
    INFO("run " << i << ": preempted_share " << runs.get(i, "preempted_share"));
    // One CPU, two spinning processes: the run waits about half its time.
    CHECK(std::stod(runs.get(i, "preempted_share")) > 0.2);
    CHECK(runs.get(i, "disturbed") == "true");
    CHECK_THAT(runs.get(i, "note"), Catch::Contains("disturbed"));
  }
  const auto results = edp::report::read_csv_file(dir + "/out/results.csv");
  REQUIRE(results.rows.size() == 1);
  CHECK(results.get(0, "disturbed_runs") == "3");
  CHECK_THAT(results.get(0, "note"), Catch::Contains("disturbed"));
}
