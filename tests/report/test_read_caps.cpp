// The readers of untrusted files bound memory, not only bytes (the review's
// repro 03): a results.csv of 8 MiB of commas held 8 million empty strings
// (957 MB RSS in recommend), a context.json of 16 MiB of "0," 8 million
// values (1.7 GB in report). The caps are in report/csv.h and json_read.cpp.
#include <catch2/catch.hpp>
#include <string>

#include "report/csv.h"
#include "report/json_read.h"

using namespace edp::report;

TEST_CASE("parse_csv refuses more fields in a record than its cap, naming the line",
          "[csv][caps]") {
  const std::string ok_header = std::string(kCsvMaxFields - 1, ',') + "\n";
  CHECK(parse_csv(ok_header, "wide.csv").header.size() == kCsvMaxFields);
  const std::string commas = "a,b\n1,2\n" + std::string(8 << 10, ',') + "\n";
  CHECK_THROWS_WITH(parse_csv(commas, "results.csv"),
                    Catch::Contains("results.csv:3: more than 1024 fields in one record"));
}

TEST_CASE("parse_csv refuses more records or fields in a file than its caps", "[csv][caps]") {
  std::string lines = "t\n";
  for (size_t i = 0; i < kCsvMaxRecords; ++i) lines += "1\n";  // header + 1000000 rows
  CHECK_THROWS_WITH(parse_csv(lines, "runs.csv"),
                    Catch::Contains("runs.csv:1000001: more than 1000000 records"));
  // 1000 columns x 8400 rows: 8.4 million fields, each record within its cap.
  const std::string row = std::string(999, ',') + "\n";
  std::string cells;
  cells.reserve(row.size() * 8400);
  for (int i = 0; i < 8400; ++i) cells += row;
  CHECK_THROWS_WITH(parse_csv(cells, "rails.csv"),
                    Catch::Contains("rails.csv:8389: more than 8388608 fields in the file"));
  // Just under: 8388 rows.
  cells.resize(row.size() * 8388);
  CHECK(parse_csv(cells, "rails.csv").rows.size() == 8387);
}

TEST_CASE("parse_json refuses more than 500000 values", "[json][caps]") {
  auto array_of = [](size_t n) {
    std::string s = "[";
    for (size_t i = 0; i < n; ++i) s += i ? ",0" : "0";
    return s + "]";
  };
  CHECK(parse_json(array_of(499999), "context.json").array.size() == 499999);  // + the array
  CHECK_THROWS_WITH(parse_json(array_of(500000), "context.json"),
                    Catch::Contains("context.json: more than 500000 values"));
}
