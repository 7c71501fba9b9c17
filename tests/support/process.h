// Runs the edpbench binary (or any command) for CLI tests and captures its
// exit code, stdout and stderr.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "support/binary.h"
#include "support/files.h"

namespace edp::testing {

struct Result {
  int exit_code = -1;
  std::string out, err;
};

// `args` is passed to /bin/sh, so quote paths with spaces yourself.
inline Result run(const std::string& args) {
  static int counter = 0;
  const std::string base =
      "/tmp/edpbench-cli-" + std::to_string(::getpid()) + "-" + std::to_string(counter++);
  const std::string cmd = args + " >" + base + ".out 2>" + base + ".err </dev/null";
  const int status = std::system(cmd.c_str());
  Result r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = slurp(base + ".out");
  r.err = slurp(base + ".err");
  std::remove((base + ".out").c_str());
  std::remove((base + ".err").c_str());
  return r;
}

inline Result edpbench(const std::string& args) {
  return run(std::string(EDPBENCH_BINARY) + " " + args);
}

}  // namespace edp::testing
