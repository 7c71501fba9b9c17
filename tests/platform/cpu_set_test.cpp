// resolve_cpu_set(): the config's `cpus:` value becomes the runner's affinity.
#include <catch2/catch.hpp>

#include "common/errors.h"
#include "platform/cpu_list.h"
#include "platform/platform.h"
#include "support/fixtures.h"

using edp::testing::kTx2Tree;
using edp::testing::kX86Tree;
using namespace edp::platform;
using Catch::Contains;

namespace {

std::string usage_error(const Platform& p, const std::string& spec) {
  try {
    resolve_cpu_set(p, spec);
  } catch (const edp::UsageError& e) {
    return e.what();
  }
  FAIL("no UsageError for cpus \"" << spec << "\"");
  return "";
}
}  // namespace

TEST_CASE("CPU lists parse like the kernel's and format back compactly") {
  CHECK(parse_cpu_list("0-5") == std::vector<int>{0, 1, 2, 3, 4, 5});
  CHECK(parse_cpu_list("0,3-5\n") == std::vector<int>{0, 3, 4, 5});
  CHECK(parse_cpu_list(" 5, 1 ,1") == std::vector<int>{1, 5});
  CHECK(parse_cpu_list("").empty());
  CHECK_THROWS_AS(parse_cpu_list("3-1"), std::invalid_argument);
  CHECK_THROWS_AS(parse_cpu_list("1,,2"), std::invalid_argument);
  CHECK_THROWS_AS(parse_cpu_list("a"), std::invalid_argument);
  CHECK_THROWS_AS(parse_cpu_list("0-99999999"), std::invalid_argument);
  CHECK(format_cpu_list({0, 3, 4, 5}) == "0,3-5");
  CHECK(format_cpu_list({1, 2}) == "1-2");
  CHECK(format_cpu_list({}) == "");
}

TEST_CASE("TX2: cluster names and lists resolve to sorted online CPU ids") {
  const Platform p = probe(kTx2Tree);
  SECTION("a57") { CHECK(resolve_cpu_set(p, "a57") == std::vector<int>{0, 3, 4, 5}); }
  SECTION("denver") { CHECK(resolve_cpu_set(p, "denver") == std::vector<int>{1, 2}); }
  SECTION("explicit list") { CHECK(resolve_cpu_set(p, "0,3-5") == std::vector<int>{0, 3, 4, 5}); }
  SECTION("all") { CHECK(resolve_cpu_set(p, "all") == std::vector<int>{0, 1, 2, 3, 4, 5}); }
  SECTION("names are case-insensitive and terms combine") {
    CHECK(resolve_cpu_set(p, " Denver , 5,4") == std::vector<int>{1, 2, 4, 5});
  }
}

TEST_CASE("TX2: bad CPU sets throw a UsageError that says what is valid") {
  const Platform p = probe(kTx2Tree);
  SECTION("unknown name") {
    const std::string msg = usage_error(p, "big");
    CHECK_THAT(msg, Contains("unknown CPU set name 'big'"));
    CHECK_THAT(msg, Contains("all, a57, denver"));
  }
  SECTION("bad syntax") {
    CHECK_THAT(usage_error(p, "3-"), Contains("'3-' is not a CPU id or a range N-M"));
    CHECK_THAT(usage_error(p, "5-3"), Contains("runs backwards"));
    CHECK_THAT(usage_error(p, "0,,1"), Contains("empty term"));
    CHECK_THAT(usage_error(p, ""), Contains("empty CPU set"));
  }
  SECTION("absent CPU") {
    CHECK_THAT(usage_error(p, "0,6"), Contains("CPU 6 does not exist (CPUs on this machine: 0-5)"));
  }
  SECTION("a core type this board lacks") {
    CHECK_THAT(usage_error(p, "carmel"), Contains("no carmel cores"));
  }
}

TEST_CASE("x86: a57 and denver are empty, and the error lists the clusters that exist") {
  const Platform p = probe(kX86Tree);
  CHECK(resolve_cpu_set(p, "all") == std::vector<int>{0, 1, 2, 3});
  CHECK(resolve_cpu_set(p, "x86") == std::vector<int>{0, 1, 2, 3});
  CHECK(resolve_cpu_set(p, "1-2") == std::vector<int>{1, 2});
  const std::string msg = usage_error(p, "a57");
  CHECK_THAT(msg, Contains("this machine has no a57 cores"));
  CHECK_THAT(msg, Contains("x86 (CPUs 0-3)"));
  CHECK_THAT(usage_error(p, "denver"), Contains("no denver cores"));
}
