// One process per output directory (issue 20, item 4): a second `run` or
// `--resume` on the --out of a running sweep exits 2 naming the other
// process, and a lock file left by a killed run does not block the next one.
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "support/process.h"

extern char** environ;
namespace fs = std::filesystem;
using Catch::Contains;

namespace {

std::string long_config(const std::string& dir) {
  const std::string path = dir + "/long.yaml";
  edp::testing::write_text(path, std::string(R"(name: long
iterations: 3
runs: 100000
warmup_iterations: 0
workloads: [tensors]
sizes:
  tiny: {n: 4, d_in: 8, h: 4, d_out: 2}
devices:
  - {kind: cpu, threads: 1, cpus: all}
power:
  source: trace
  baseline_s: 0
  trace: {file: )") + EDPBENCH_FIXTURES "/cli/constant_7w5.csv}\n");
  return path;
}

pid_t spawn_locked_run(const std::string& cfg, const std::string& out, bool resume = false) {
  std::vector<std::string> args{EDPBENCH_BINARY, "run", "--config", cfg, "--out", out};
  if (resume) args.push_back("--resume");
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
  pid_t pid = -1;
  REQUIRE(posix_spawn(&pid, argv[0], &fa, nullptr, argv.data(), environ) == 0);
  posix_spawn_file_actions_destroy(&fa);
  return pid;
}

// Waits until the sweep has started measuring (its config.yaml is written,
// which happens after the lock is taken).
void wait_started(const std::string& out) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (!fs::exists(out + "/config.yaml") && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  REQUIRE(fs::exists(out + "/config.yaml"));
}

int stop(pid_t pid, int sig) {
  ::kill(pid, sig);
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

}  // namespace

TEST_CASE("CLI: a second run or --resume on a locked --out exits 2 naming the other process",
          "[cli][lock]") {
  const std::string dir = edp::testing::temp_dir("lock");
  const std::string cfg = long_config(dir), out = dir + "/out";
  const pid_t first = spawn_locked_run(cfg, out);
  wait_started(out);
  const auto resume = edp::testing::edpbench("run --config " + cfg + " --out " + out + " --resume");
  CHECK(resume.exit_code == 2);
  CHECK_THAT(resume.err,
             Contains("in use by another edpbench process (pid " + std::to_string(first) + ": "));
  CHECK_THAT(resume.err, Contains(" run --config " + cfg));
  const auto fresh = edp::testing::edpbench("run --config " + cfg + " --out " + out);
  CHECK(fresh.exit_code == 2);
  CHECK_THAT(fresh.err, Contains("pid " + std::to_string(first)));
  // The first one was not disturbed: it stops on SIGTERM as usual.
  CHECK(stop(first, SIGTERM) == 143);

  // SIGKILL leaves the lock file; the kernel released the lock with the process.
  const pid_t second = spawn_locked_run(cfg, dir + "/out2");
  wait_started(dir + "/out2");
  CHECK(stop(second, SIGKILL) == 128 + SIGKILL);
  CHECK(fs::exists(dir + "/out2/.edpbench.lock"));
  const pid_t resumed = spawn_locked_run(cfg, dir + "/out2", true);
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  int status = 0;
  CHECK(::waitpid(resumed, &status, WNOHANG) == 0);  // still running: it got the lock
  CHECK(stop(resumed, SIGTERM) == 143);
  std::error_code ec;
  fs::remove_all(dir, ec);
}

TEST_CASE("CLI: a lock file hard-linked to another file is refused, the file left intact",
          "[cli][lock]") {
  // Whoever can write --out (the service user) can plant .edpbench.lock as a
  // hard link to a file it cannot write; a root `run --resume` then truncated
  // that file and wrote its pid into it.
  const std::string dir = edp::testing::temp_dir("lock-link");
  const std::string cfg = long_config(dir), out = dir + "/out";
  fs::create_directories(out);
  const std::string victim = dir + "/victim.conf";
  edp::testing::write_text(victim, "precious\n");
  fs::create_hard_link(victim, out + "/.edpbench.lock");
  const auto r = edp::testing::edpbench("run --config " + cfg + " --out " + out);
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Contains("link"));
  std::ifstream in(victim);
  CHECK(std::string(std::istreambuf_iterator<char>(in), {}) == "precious\n");
  std::error_code ec;
  fs::remove_all(dir, ec);
}
