// The test executables' exit status (tests/main.cpp, support/skip.h): ctest
// reads kSkipExitCode as "Skipped", so a failure count must never equal it.
#include <catch2/catch.hpp>

#include "support/skip.h"

TEST_CASE("test harness: a failure count never reads as ctest's skip status", "[harness]") {
  using edp::testing::kSkipExitCode;
  using edp::testing::test_exit_code;
  CHECK(test_exit_code(0) == 0);
  CHECK(test_exit_code(4) == 4);  // four failed checks: a failure (the skip status was 4)
  CHECK(test_exit_code(kSkipExitCode) == kSkipExitCode + 1);
  CHECK(test_exit_code(255) == 255);
  for (int failed = 1; failed <= 255; ++failed) CHECK(test_exit_code(failed) != kSkipExitCode);
}
