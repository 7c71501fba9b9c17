// Inputs found by fuzz/fuzz_config (scripts/fuzz.sh): each config must be
// rejected with a UsageError that names FILE:LINE:COL, never with another
// exception or without a position.
#include <catch2/catch.hpp>
#include <regex>

#include "bench/studies/config_schema.h"
#include "common/errors.h"

using namespace edp::bench;

namespace {
// The UsageError parse_config throws for `text`; "" when it accepts it.
std::string rejection(const std::string& text) {
  try {
    (void)parse_config(text, "f.yaml");
  } catch (const edp::UsageError& e) {
    return e.what();
  }
  return "";
}
bool located(const std::string& what) {
  return std::regex_search(what, std::regex(R"(^f\.yaml:[0-9]+:[0-9]+: )"));
}
}  // namespace

TEST_CASE("fuzz: an empty or scalar document is rejected at 1:1", "[config][fuzz]") {
  for (const char* text : {"", "\n", "# only a comment\n", "42\n", "~\n"}) {
    const std::string what = rejection(text);
    INFO(what);
    CHECK(located(what));
    CHECK_THAT(what, Catch::Contains("must be a mapping"));
  }
  CHECK_THAT(rejection(""), Catch::StartsWith("f.yaml:1:1: "));
}

TEST_CASE("fuzz: a key that is a list or mapping is a UsageError, not a bad conversion",
          "[config][fuzz]") {
  // fuzz_config turned a line of paper.yaml into a complex key; yaml-cpp's
  // BadConversion escaped parse_config.
  const std::string what = rejection("power:\n  source: jetson\n? total_rails: [VDD_IN]\n");
  INFO(what);
  CHECK(located(what));
  CHECK_THAT(what, Catch::Contains("a key must be a plain name"));
  CHECK(located(rejection("? [a, b]\n: 1\n")));
  CHECK(located(rejection("sizes:\n  ? {n: 1}\n  : {n: 1, d_in: 1, h: 1, d_out: 1}\n")));
  CHECK(located(rejection("power:\n  ? [x]\n  : 1\n")));
}
