// The atomic writer (issue 20, item 2): a planted symlink at the temp name is
// not followed, temp files left by dead processes (SIGKILL) are removed at the
// next write, and a live process's temp file is kept.
#include <catch2/catch.hpp>

#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "common/atomic_file.h"
#include "support/files.h"

namespace fs = std::filesystem;

using edp::testing::slurp;
using edp::testing::TempDir;

namespace {

// A pid that is certainly not running: a child that has exited and been reaped.
pid_t dead_pid() {
  const pid_t c = fork();
  if (c == 0) _exit(0);
  waitpid(c, nullptr, 0);
  return c;
}

}  // namespace

TEST_CASE("atomic file: a symlink planted at the temp name is not followed") {
  TempDir d;
  const std::string target = d.path + "/results.csv";
  const std::string victim = d.path + "/victim";
  std::ofstream(victim) << "precious\n";
  // The name the writer used before (path.tmp.<pid>) and one with our pid.
  fs::create_symlink(victim, target + ".tmp." + std::to_string(getpid()));
  edp::write_file_atomic(target, "new\n");
  CHECK(slurp(victim) == "precious\n");
  CHECK(slurp(target) == "new\n");
  CHECK_FALSE(fs::is_symlink(fs::symlink_status(target)));
  struct stat st;
  REQUIRE(stat(target.c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0644);
}

TEST_CASE("atomic file: temp files of dead processes are removed, a live one's kept") {
  TempDir d;
  const std::string target = d.path + "/runs.csv";
  const std::string dead1 = target + ".tmp." + std::to_string(dead_pid());
  const std::string dead2 = target + ".tmp." + std::to_string(dead_pid()) + ".a1B2c3";
  pid_t live = fork();
  REQUIRE(live >= 0);
  if (live == 0) {
    pause();
    _exit(0);
  }
  const std::string alive = target + ".tmp." + std::to_string(live) + ".Zz9Yy8";
  const std::string other = d.path + "/other.csv.tmp." + std::to_string(dead_pid());
  const std::string lookalike = target + ".tmp.123x";
  for (const auto& f : {dead1, dead2, alive, other, lookalike}) std::ofstream(f) << "partial";
  edp::write_file_atomic(target, "rows\n");
  CHECK_FALSE(fs::exists(dead1));
  CHECK_FALSE(fs::exists(dead2));
  CHECK(fs::exists(alive));      // its owner may still rename it
  CHECK(fs::exists(other));      // another file's temp: not ours to judge here
  CHECK(fs::exists(lookalike));  // not the pattern
  CHECK(slurp(target) == "rows\n");
  kill(live, SIGKILL);
  waitpid(live, nullptr, 0);
  CHECK(edp::remove_stale_temp_files(target) == 1);
  CHECK_FALSE(fs::exists(alive));
  // Nothing of ours is left after a write either.
  fs::remove(lookalike);
  int temps = 0;
  for (auto& e : fs::directory_iterator(d.path))
    temps += e.path().filename().string().find("runs.csv.tmp") == 0;
  CHECK(temps == 0);
}

TEST_CASE("atomic file: a SIGKILLed writer's temp file is cleaned at the next start") {
  TempDir d;
  const std::string target = d.path + "/results.csv";
  const pid_t c = fork();
  REQUIRE(c >= 0);
  if (c == 0) {
    // Simulate a writer killed between mkstemp and rename.
    std::string tmp = target + ".tmp." + std::to_string(getpid()) + ".XXXXXX";
    const int fd = mkstemp(&tmp[0]);
    if (fd >= 0) (void)!write(fd, "half", 4);
    raise(SIGKILL);
  }
  waitpid(c, nullptr, 0);
  CHECK(std::distance(fs::directory_iterator(d.path), fs::directory_iterator()) == 1);
  edp::write_file_atomic(target, "whole\n");
  CHECK(std::distance(fs::directory_iterator(d.path), fs::directory_iterator()) == 1);
  CHECK(slurp(target) == "whole\n");
}
