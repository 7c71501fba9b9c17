#include "support/binary.h"

#include <limits.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

namespace edp::testing {

const char* edpbench_binary() {
  // EDPBENCH_BINARY_FROM_TESTS (tests/CMakeLists.txt): the binary's path
  // relative to the folder of the test executables, the same in every build.
  static const std::string path = [] {
    char exe[PATH_MAX];
    const ssize_t n = ::readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) {
      std::perror("tests: readlink /proc/self/exe");
      std::abort();
    }
    std::string dir(exe, static_cast<size_t>(n));
    dir.erase(dir.rfind('/'));
    const std::string joined = dir + "/" EDPBENCH_BINARY_FROM_TESTS;
    char resolved[PATH_MAX];
    if (!::realpath(joined.c_str(), resolved) || ::access(resolved, X_OK) != 0) {
      std::fprintf(stderr, "tests: no edpbench binary at %s (build the edpbench target)\n",
                   joined.c_str());
      std::abort();
    }
    return std::string(resolved);
  }();
  return path.c_str();
}

}  // namespace edp::testing
