// `edpbench probe`, run as a process against the fixture trees.
#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

#include "support/binary.h"
#include "support/fixtures.h"

using Catch::Contains;

using edp::testing::kTx2Tree;
using edp::testing::kX86Tree;

namespace {

struct Result {
  int rc = -1;
  std::string out;
};

// Runs edpbench with `args`, capturing stdout (stderr is discarded).
Result edpbench(const std::string& args) {
  Result r;
  FILE* pipe =
      popen((std::string("'") + EDPBENCH_BINARY + "' " + args + " 2>/dev/null").c_str(), "r");
  REQUIRE(pipe != nullptr);
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, pipe)) > 0) r.out.append(buf, n);
  const int status = pclose(pipe);
  r.rc = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

bool json_valid(const std::string& json) {
  if (std::system("command -v python3 >/dev/null 2>&1") != 0) return true;
  FILE* pipe = popen("python3 -c 'import json,sys; json.load(sys.stdin)'", "w");
  REQUIRE(pipe != nullptr);
  fwrite(json.data(), 1, json.size(), pipe);
  return pclose(pipe) == 0;
}

}  // namespace

TEST_CASE("CLI: probe --json prints the TX2 fixture as one JSON object on stdout") {
  REQUIRE(access(EDPBENCH_BINARY, X_OK) == 0);
  const Result r = edpbench("probe --json --sysfs-root '" + kTx2Tree + "'");
  CHECK(r.rc == 0);
  CHECK_THAT(r.out, Contains("\"l4t_release\":\"R32.7.1\""));
  CHECK_THAT(r.out, Contains("\"mode\":\"MAXN\""));
  CHECK(json_valid(r.out));
}

TEST_CASE("CLI: probe prints a readable report, also on a machine without cpufreq") {
  REQUIRE(access(EDPBENCH_BINARY, X_OK) == 0);
  const Result tx2 = edpbench("probe --sysfs-root '" + kTx2Tree + "'");
  CHECK(tx2.rc == 0);
  CHECK_THAT(tx2.out, Contains("MAXN (id 0)"));
  const Result x86 = edpbench("probe --sysfs-root '" + kX86Tree + "'");
  CHECK(x86.rc == 0);
  CHECK_THAT(x86.out, Contains("Standard PC (Q35 + ICH9, 2009)"));
  CHECK_THAT(x86.out, Contains("no cpufreq"));
}

TEST_CASE("CLI: probe with a sysfs root that does not exist exits 2") {
  REQUIRE(access(EDPBENCH_BINARY, X_OK) == 0);
  CHECK(edpbench("probe --sysfs-root /nonexistent/edpbench-root").rc == 2);
}
