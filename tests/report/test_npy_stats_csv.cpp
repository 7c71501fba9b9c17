// .npy round trip (and numpy's own reading of it), statistics against
// hand-computed values, and RFC 4180 CSV quoting.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>

#include "report/csv.h"
#include "report/npy.h"
#include "report/stats.h"
#include "support/process.h"

using namespace edp::report;

TEST_CASE("npy files round-trip shape and values bit for bit", "[npy]") {
  const std::string dir = edp::testing::temp_dir("npy");
  std::vector<float> v{1.5f, -2.25f, 3e-38f, INFINITY, 0.0f, -0.0f};
  write_npy(dir + "/a.npy", v.data(), {2, 3});
  const NpyArray a = read_npy(dir + "/a.npy");
  CHECK(a.shape == std::vector<int64_t>{2, 3});
  REQUIRE(a.data.size() == v.size());
  CHECK(std::memcmp(a.data.data(), v.data(), v.size() * sizeof(float)) == 0);
  // The header is padded so that the data starts on a 64-byte boundary.
  const std::string raw = edp::testing::slurp(dir + "/a.npy");
  CHECK((raw.size() - v.size() * sizeof(float)) % 64 == 0);
  CHECK(raw.compare(0, 6, "\x93NUMPY") == 0);
}

TEST_CASE("numpy.load reads the npy files edpbench writes", "[npy][python]") {
  const auto probe = edp::testing::run("/usr/bin/python3 -c 'import numpy'");
  if (probe.exit_code != 0) {
    WARN("skipped: /usr/bin/python3 with numpy is not installed (apt-get install python3-numpy)");
    return;
  }
  const std::string dir = edp::testing::temp_dir("npy-py");
  std::vector<float> v{0.5f, 1.0f, 2.0f, 4.0f, 8.0f, 16.0f, 32.0f, 64.0f};
  write_npy(dir + "/b.npy", v.data(), {4, 2});
  write_npy(dir + "/c.npy", v.data(), {8});
  const auto r = edp::testing::run(
      "/usr/bin/python3 -c \"import numpy as np; a=np.load('" + dir + "/b.npy'); c=np.load('" +
      dir + "/c.npy'); print(a.dtype, a.shape, a.flags['C_CONTIGUOUS'], float(a[3,1]), c.shape)\"");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.out == "float32 (4, 2) True 64.0 (8,)\n");
}

TEST_CASE("statistics match hand-computed values", "[stats]") {
  // 2, 4, 4, 4, 5, 5, 7, 9: mean 5, sample variance 32/7.
  const std::vector<double> v{2, 4, 4, 4, 5, 5, 7, 9};
  CHECK(mean(v) == Approx(5.0));
  CHECK(stddev(v) == Approx(std::sqrt(32.0 / 7.0)));
  CHECK(median(v) == Approx(4.5));
  // t(0.975, 7) = 2.365 -> CI half-width = 2.365 * 2.13809 / sqrt(8) = 1.78777
  CHECK(ci95_half_width(v) == Approx(1.78777).epsilon(1e-4));
  const Summary s = summarize(v);
  CHECK(s.min == 2);
  CHECK(s.max == 9);
  CHECK(s.n == 8);
}

// numpy.quantile's default (Hyndman and Fan type 7): the order statistic at
// (n - 1) q, interpolated. For 2, 4, 4, 4, 5, 5, 7, 9 (sorted from any
// order): q = 0.9 sits at 6.3, 7 + 0.3 x (9 - 7) = 7.6; q = 0.99 at 6.93,
// 8.86; q = 0.25 at 1.75, 4.
TEST_CASE("quantile interpolates between order statistics as numpy does", "[stats]") {
  const std::vector<double> v{9, 4, 2, 5, 4, 7, 4, 5};
  CHECK(quantile(v, 0.5) == Approx(median(v)));
  CHECK(quantile(v, 0.9) == Approx(7.6));
  CHECK(quantile(v, 0.99) == Approx(8.86));
  CHECK(quantile(v, 0.25) == Approx(4.0));
  CHECK(quantile(v, 0) == 2);
  CHECK(quantile(v, 1) == 9);
  CHECK(quantile({3.0}, 0.99) == 3);
  CHECK(std::isnan(quantile({}, 0.5)));
}

TEST_CASE("statistics define their edge cases", "[stats]") {
  CHECK(std::isnan(mean({})));
  CHECK(stddev({3.0}) == 0.0);
  CHECK(ci95_half_width({3.0}) == 0.0);
  CHECK(median({1, 3}) == 2.0);
  CHECK(student_t975(1) == Approx(12.706));
  CHECK(student_t975(9) == Approx(2.262));
  CHECK(student_t975(60) == Approx(2.000).epsilon(1e-3));   // table value 2.000
  CHECK(student_t975(120) == Approx(1.980).epsilon(1e-3));  // table value 1.980
}

TEST_CASE("csv quoting round-trips commas, quotes and newlines", "[csv]") {
  const std::vector<std::string> row{"plain", "a,b", "say \"hi\"", "two\nlines", ""};
  const std::string text = csv_line({"c1", "c2", "c3", "c4", "c5"}) + csv_line(row);
  CHECK(csv_line(row) == "plain,\"a,b\",\"say \"\"hi\"\"\",\"two\nlines\",\r\n");
  const CsvTable t = parse_csv(text);
  REQUIRE(t.rows.size() == 1);
  CHECK(t.rows[0] == row);
  CHECK(t.get(0, "c2") == "a,b");
  CHECK_THROWS_WITH(parse_csv("a,b\n1\n", "x.csv"),
                    Catch::Contains("x.csv") && Catch::Contains("1 fields"));
}

TEST_CASE("csv: a header that names a column twice is refused at line 1", "[csv]") {
  // Every reader takes a column's first copy: the second would be dropped
  // without a word (a 1000x 'confident' recommendation in review).
  CHECK_THROWS_WITH(parse_csv("edp_js_mean,workload,edp_js_mean\n1000,t,1\n", "r.csv"),
                    Catch::Contains("r.csv:1:") && Catch::Contains("'edp_js_mean' twice") &&
                        Catch::Contains("fields 1 and 3"));
  // One record on its own (samples.csv's lines) may repeat values.
  CHECK(parse_csv_record("0,0,0\r\n", "s.csv") == std::vector<std::string>{"0", "0", "0"});
  CHECK_THROWS_WITH(parse_csv_record("a\nb\n", "s.csv"), Catch::Contains("one record"));
}

TEST_CASE("csv: a UTF-8 byte-order mark before the header is dropped", "[csv]") {
  const CsvTable t = parse_csv("\xEF\xBB\xBFworkload,size\ntensors,small\n", "bom.csv");
  CHECK(t.header == std::vector<std::string>{"workload", "size"});
  CHECK(t.get(0, "workload") == "tensors");
}

TEST_CASE("parse_double reads decimal numbers as edpbench writes them, nothing else",
          "[report][csv]") {
  CHECK(parse_double("1.5") == 1.5);
  CHECK(parse_double("-2e-3") == -2e-3);
  CHECK(parse_double("+7") == 7);
  CHECK(parse_double(".5") == 0.5);
  for (const char* bad :
       {"", " 1.48", "1.48 ", "0x1p-3", "nan", "inf", "-inf", "1e999", "1,5", "1.5x", "\t2"}) {
    INFO("'" << bad << "'");
    CHECK_FALSE(parse_double(bad));
  }
}

TEST_CASE("parse_count accepts whole counts only, so a corrupt field cannot overflow an integer",
          "[report][csv]") {
  CHECK(parse_count("10") == 10);
  CHECK(parse_count("0") == 0);
  CHECK(parse_count("512.0") == 512);
  CHECK(parse_count("9007199254740992") == 9007199254740992LL);
  CHECK_FALSE(parse_count("2.22222e+40"));  // the value the fuzzer found
  CHECK_FALSE(parse_count("-1"));
  CHECK_FALSE(parse_count("2.5"));
  CHECK_FALSE(parse_count("nan"));
  CHECK_FALSE(parse_count("inf"));
  CHECK_FALSE(parse_count(""));
  CHECK_FALSE(parse_count("ten"));
}
