// `edpbench report` shows every study's rows (issue 34): the rows the monitor
// API writes (study = monitor) get the same figures, recommendation and table
// as a sweep's, alone and beside a sweep's own rows. The fixtures are the real
// writers' output (tests/fixtures/report/make_monitor_fixtures.sh): on the
// constant 4.5 W trace, py_tensors is twice as fast on "gpu", py_autograd on
// "cpu".
#include <catch2/catch.hpp>

#include <string>

#include "support/process.h"

using edp::testing::edpbench;

namespace {

const std::string kMonitorOnly = EDPBENCH_FIXTURES "/report/monitor_only";
const std::string kRunAndMonitor = EDPBENCH_FIXTURES "/report/run_and_monitor";

size_t count(const std::string& hay, const std::string& needle) {
  size_t n = 0;
  for (size_t p = hay.find(needle); p != std::string::npos; p = hay.find(needle, p + 1)) ++n;
  return n;
}

std::string between(const std::string& s, const std::string& start, const std::string& end) {
  const size_t a = s.find(start);
  if (a == std::string::npos) return "";
  const size_t b = s.find(end, a + start.size());
  return s.substr(a, b == std::string::npos ? std::string::npos : b - a);
}

std::string report_of(const std::string& dir, const std::string& tag) {
  const std::string out = edp::testing::temp_dir(tag) + "/report.html";
  const auto r = edpbench("report " + dir + " -o " + out);
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  return edp::testing::slurp(out);
}

// The choice in the recommendation tables' row of `workload` ("" when none).
std::string choice_of(const std::string& html, const std::string& workload) {
  const std::string table_start = "<table class=\"recommendation\">";
  for (size_t at = html.find(table_start); at != std::string::npos;
       at = html.find(table_start, at + 1)) {
    const std::string table = between(html.substr(at), table_start, "</table>");
    const std::string row = between(table, "<tr><td>" + workload + "</td>", "</tr>");
    const std::string choice = between(row, "<span class=\"choice ", "\"");
    if (!choice.empty()) return choice.substr(std::string("<span class=\"choice ").size());
  }
  return "";
}

}  // namespace

TEST_CASE("report: a monitor-only directory gets the figures, the recommendation and the table",
          "[report][monitor]") {
  const std::string html = report_of(kMonitorOnly, "report-monitor-only");
  // Time, energy and EDP, one bar per (workload, device): 2 x 2 each.
  for (const char* id : {"fig-time_s", "fig-energy_j", "fig-edp_js"}) {
    const std::string svg = between(html, std::string("<figure id=\"") + id, "</figure>");
    INFO(id);
    REQUIRE_FALSE(svg.empty());
    CHECK(count(svg, "</title></rect>") == 4);  // a bar carries its value as a title
  }
  CHECK(choice_of(html, "py_tensors") == "gpu");
  CHECK(choice_of(html, "py_autograd") == "cpu");
  const std::string table = between(html, "<h2>All configurations</h2>", "</table>");
  CHECK(count(table, "<tr class=\"ok\">") == 4);
}

TEST_CASE("report: the monitor's rows written into a run directory show beside the sweep's",
          "[report][monitor]") {
  const std::string html = report_of(kRunAndMonitor, "report-run-and-monitor");
  // The sweep's mlp row and the monitor's four rows, each in a table of its study.
  CHECK(count(html, "<tr class=\"ok\"><td>tensors</td>") == 1);
  CHECK(count(html, "<tr class=\"ok\"><td>py_tensors</td>") == 2);
  CHECK(count(html, "<tr class=\"ok\"><td>py_autograd</td>") == 2);
  CHECK(choice_of(html, "py_tensors") == "gpu");
  CHECK(choice_of(html, "py_autograd") == "cpu");
  // Two sections of figures, one per study, whose headings and ids name it.
  CHECK(count(html, "<figure id=\"fig-time_s") == 2);
  CHECK(count(html, "<figure id=\"fig-time_s-mlp\"") == 1);
  CHECK(count(html, "<figure id=\"fig-time_s-monitor\"") == 1);
  CHECK(count(html, "<h2>Recommendation (monitor)</h2>") == 1);
}

TEST_CASE("report: the ops study's own file beside the results of two studies",
          "[report][monitor]") {
  const std::string html = report_of(kRunAndMonitor, "report-run-and-monitor-ops");
  CHECK(count(html, "<h2 id=\"ops\">") == 1);
}

TEST_CASE("compare: a sweep with ops runs and monitor rows pairs every results.csv row",
          "[compare][monitor]") {
  // runs.csv holds the ops study's runs too, whose results are in ops.csv:
  // they have no results.csv row to match and are not compared.
  const auto r = edpbench("compare " + kRunAndMonitor + " " + kRunAndMonitor + " --csv");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  // Two studies in the sweeps: each label names its study.
  CHECK(count(r.out, "tensors/tiny/cpu study=mlp,") == 4);  // one row per metric
  CHECK(count(r.out, "py_tensors/small/gpu study=monitor,") == 4);
  CHECK(count(r.out, "study=ops") == 0);
}
