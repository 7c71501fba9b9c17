// Sweeps that survive: SIGTERM/SIGINT in the middle of a sweep save what is
// complete and exit 143/130; --resume finishes it without duplicating or
// recomputing anything, and refuses a different configuration.
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>
#include <catch2/catch.hpp>

#include <chrono>
#include <set>
#include <thread>

#include "report/csv.h"
#include "support/process.h"

extern char** environ;

namespace {

std::string sweep_config(const std::string& dir) {
  const std::string path = dir + "/sweep.yaml";
  // 3 workloads x 2 sizes x 1 device = 6 configurations of a few tenths of a second.
  edp::testing::write_text(path,
                           "name: resume-test\niterations: 150\nruns: 3\nwarmup_iterations: 1\n"
                           "learning_rate: 1.0e-6\ninit_scale: 0.1\n"
                           "workloads: [tensors, autograd, custom_relu]\n"
                           "sizes:\n  a: {n: 32, d_in: 3000, h: 64, d_out: 8}\n"
                           "  b: {n: 32, d_in: 4000, h: 64, d_out: 8}\n"
                           "devices: [{kind: cpu, threads: 1}]\npower: {source: none}\n");
  return path;
}

pid_t spawn_run(const std::string& cfg, const std::string& out) {
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
  return pid;
}

size_t rows_in(const std::string& path) {
  if (::access(path.c_str(), F_OK) != 0) return 0;
  return edp::report::read_csv_file(path).rows.size();
}

int interrupt_mid_sweep(const std::string& cfg, const std::string& out, int sig) {
  const pid_t pid = spawn_run(cfg, out);
  // Wait for the first completed configuration, then stop the sweep.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  while (rows_in(out + "/results.csv") < 1 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  ::kill(pid, sig);
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

}  // namespace

TEST_CASE("SIGTERM mid-sweep then --resume gives one row per configuration", "[cli][resume]") {
  const std::string dir = edp::testing::temp_dir("resume");
  const std::string cfg = sweep_config(dir), out = dir + "/out";
  CHECK(interrupt_mid_sweep(cfg, out, SIGTERM) == 143);
  const size_t done = rows_in(out + "/results.csv");
  CHECK(done >= 1);
  CHECK(done < 6);
  CHECK(rows_in(out + "/runs.csv") == done * 3);  // only complete configurations
  CHECK_THAT(edp::testing::slurp(out + "/context.json"), Catch::Contains("\"complete\": false"));

  const auto r = edp::testing::edpbench("run --config " + cfg + " --out " + out + " --resume");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.err, Catch::Contains("resuming: " + std::to_string(done) + " item(s) already done"));
  const auto results = edp::report::read_csv_file(out + "/results.csv");
  CHECK(results.rows.size() == 6);
  std::set<std::string> keys;
  for (size_t i = 0; i < results.rows.size(); ++i)
    keys.insert(results.get(i, "workload") + "/" + results.get(i, "size") + "/" +
                results.get(i, "device"));
  CHECK(keys.size() == 6);
  CHECK(rows_in(out + "/runs.csv") == 6 * 3);
  CHECK_THAT(edp::testing::slurp(out + "/context.json"), Catch::Contains("\"complete\": true"));

  // Resuming a finished sweep recomputes nothing.
  const auto again = edp::testing::edpbench("run --config " + cfg + " --out " + out + " --resume");
  CHECK(again.exit_code == 0);
  CHECK(rows_in(out + "/results.csv") == 6);
  CHECK(rows_in(out + "/runs.csv") == 18);
}

TEST_CASE("SIGINT mid-sweep exits 130 after saving", "[cli][resume]") {
  const std::string dir = edp::testing::temp_dir("sigint");
  const std::string cfg = sweep_config(dir), out = dir + "/out";
  CHECK(interrupt_mid_sweep(cfg, out, SIGINT) == 130);
  CHECK(rows_in(out + "/results.csv") >= 1);
}

TEST_CASE("resume refuses a different configuration and names the difference", "[cli][resume]") {
  const std::string dir = edp::testing::temp_dir("resume-diff");
  const std::string cfg = sweep_config(dir), out = dir + "/out";
  const auto first = edp::testing::edpbench("run --config " + cfg + " --out " + out +
                                            " --workloads tensors --sizes a --runs 1");
  REQUIRE(first.exit_code == 0);
  const auto r = edp::testing::edpbench("run --config " + cfg + " --out " + out +
                                        " --workloads tensors --sizes a --runs 2 --resume");
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Catch::Contains("configuration differs") &&
                        Catch::Contains("sweep has 'runs: 1', now 'runs: 2'"));
  CHECK(rows_in(out + "/results.csv") == 1);  // nothing was touched
}
