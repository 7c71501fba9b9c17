// Catch2 entry point shared by every test executable. Its exit status is
// Catch2's (the number of failed assertions, at most 255), except that a
// failure count never equals the skip status ctest reads (support/skip.h).
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include "support/skip.h"

int main(int argc, char* argv[]) {
  return edp::testing::test_exit_code(Catch::Session().run(argc, argv));
}
