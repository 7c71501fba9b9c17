// Issue 33, item 8: CSV injection. A text cell that starts with =, +, -, @,
// a tab or a CR is a formula to a spreadsheet (OWASP "CSV Injection"): every
// writer guards it with a leading apostrophe inside quotes, numbers are never
// touched, and parse_csv gives back exactly what was written.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "report/csv.h"

using edp::report::csv_escape;
using edp::report::csv_line;
using edp::report::parse_csv;

TEST_CASE("csv: text cells a spreadsheet would run are guarded, numbers are not", "[csv]") {
  CHECK(csv_escape("=cmd|' -C calc'!A0") == "\"'=cmd|' -C calc'!A0\"");
  CHECK(csv_escape("+SUM(1)") == "\"'+SUM(1)\"");
  CHECK(csv_escape("@x") == "\"'@x\"");
  CHECK(csv_escape("-cmd") == "\"'-cmd\"");
  CHECK(csv_escape("\tx") == "\"'\tx\"");
  CHECK(csv_escape("\rx") == "\"'\rx\"");
  CHECK(csv_escape("-") == "\"'-\"");
  CHECK(csv_escape("-1+2") == "\"'-1+2\"");
  CHECK(csv_escape("'quoted") == "\"''quoted\"");  // so that the reader's rule is exact
  // Numbers, which a spreadsheet must read as numbers.
  for (const char* number : {"-0.5", "+1e3", "-1.5e-07", "-inf", "-nan", "0", "12"})
    CHECK(csv_escape(number) == number);
  CHECK(csv_escape("tensors") == "tensors");
  CHECK(csv_escape("a,b") == "\"a,b\"");
}

TEST_CASE("csv: every cell reads back as it was written", "[csv]") {
  const std::vector<std::string> cells{
      "=cmd|' -C calc'!A0", "+SUM(1)", "@x", "-cmd", "\tx", "'quoted", "''", "'", "-0.5", "plain",
      "a,\"b\"\nc",         ""};
  const std::string text = csv_line({"h"}) + [&] {
    std::string rows;
    for (const auto& c : cells) rows += csv_line({c});
    return rows;
  }();
  const auto t = parse_csv(text, "t.csv");
  REQUIRE(t.rows.size() == cells.size() - 1);  // an empty last line is no row
  for (size_t i = 0; i + 1 < cells.size(); ++i) CHECK(t.rows[i][0] == cells[i]);
}

TEST_CASE("number_problem: a cell against the range its column may hold", "[report][csv]") {
  using edp::report::number_problem;
  using edp::report::NumberRange;
  const NumberRange measured{false, 1e-15, 1e9}, difference{true, 0, 1e9};
  CHECK(number_problem("", measured).empty());  // not measured
  CHECK(number_problem("0", measured).empty());
  CHECK(number_problem("2.5", measured).empty());
  CHECK(number_problem("1e-15", measured).empty());
  CHECK(number_problem("-0.25", difference).empty());
  CHECK(number_problem("nan", measured) == "not a decimal number within a double's range");
  CHECK(number_problem("1e-310", measured) == "not a decimal number within a double's range");
  CHECK(number_problem(" 1", measured) == "not a decimal number within a double's range");
  CHECK(number_problem("-0.25", measured) == "below zero");
  CHECK(number_problem("1e-300", measured) == "smaller than 1e-15 but not 0");
  CHECK(number_problem("-1e-300", difference).empty());  // no floor on a difference
  CHECK(number_problem("2e9", measured) == "larger than 1e+09");
  CHECK(number_problem("-2e9", difference) == "larger than 1e+09");
}

TEST_CASE("csv: each row knows the line it starts on, past quoted line breaks", "[report][csv]") {
  // A note of three lines in row 1: row 2 starts on line 5, not 3; errors
  // that name "line N" send the reader to the right place.
  const auto t = edp::report::parse_csv("a,note\r\n1,\"x\ny\nz\"\r\n2,ok\r\n\r\n3,\r\n");
  REQUIRE(t.rows.size() == 3);
  CHECK(t.line_of(0) == 2);
  CHECK(t.line_of(1) == 5);
  CHECK(t.line_of(2) == 7);  // after an empty line
  // A table changed in memory falls back to the row's place.
  auto copy = t;
  copy.rows.pop_back();
  CHECK(copy.line_of(1) == 3);
}
