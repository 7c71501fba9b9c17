// A trace's watts are data from elsewhere: negative, non-finite or absurd
// values (more than 10 kW on one rail) are refused with file and line, not
// integrated into negative or infinite energy marked ok (issue 20 item 8).
#include <catch2/catch.hpp>

#include "common/errors.h"
#include "power/trace.h"

using edp::power::parse_trace;

TEST_CASE("trace values: negative, non-finite and absurd watts are refused", "[trace]") {
  const std::string head = "t_s,VDD_IN_w,GPU_w\n0,4.5,1\n";
  CHECK_THROWS_WITH(parse_trace(head + "0.5,-0.1,1\n", "t.csv"),
                    "t.csv:3: value '-0.1' of VDD_IN_w is outside 0 to 10000 W (a rail's power; "
                    "see docs/reliability.md)");
  CHECK_THROWS_WITH(parse_trace(head + "0.5,4,1e308\n", "t.csv"),
                    Catch::StartsWith("t.csv:3: value '1e308' of GPU_w is outside 0 to 10000 W"));
  CHECK_THROWS_WITH(parse_trace(head + "0.5,10000.5,1\n", "t.csv"),
                    Catch::StartsWith("t.csv:3: value '10000.5' of VDD_IN_w is outside"));
  for (const char* v : {"inf", "nan", "-inf", "1e999", "0x10"})
    CHECK_THROWS_WITH(parse_trace(head + "0.5," + v + ",1\n", "t.csv"),
                      Catch::StartsWith("t.csv:3: value '" + std::string(v) + "' of VDD_IN_w"));
  // The limits themselves, zero (an idle rail) and an empty cell are fine.
  const auto d = parse_trace(head + "0.5,10000,0\n1,,0\n", "t.csv");
  CHECK(d.rows.size() == 3);
  CHECK(d.rows[1][0] == 10000);
}
