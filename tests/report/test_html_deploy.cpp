// The report's deploy section (report/html_deploy.cpp) on the hand-made
// deploy.csv of tests/fixtures/deploy/cpu-gpu (its numbers worked by hand in
// tests/cli/test_cli_deploy.cpp): the chart of hours against rate with the
// two rates where the device changes marked, the decades' table, and
// nothing at all for a directory without a deploy.csv.
#include <stdlib.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <fstream>
#include <iterator>
#include <string>

#include "report/html_sections.h"

using namespace edp::report;

TEST_CASE("report: the deploy section charts hours against rate, crossovers marked",
          "[deploy][report]") {
  const std::string h = render_deploy_section(EDPBENCH_FIXTURES "/deploy/cpu-gpu");
  CHECK_THAT(h, Catch::Contains("<h2 id=\"deploy\">Battery life at a duty cycle</h2>"));
  CHECK_THAT(h, Catch::Contains("<svg"));
  CHECK_THAT(h, Catch::Contains("id=\"fig-deploy-infer-small\""));
  // The GPU gated below 0.94/s, the CPU between, the GPU's bursts above 38.5/s.
  CHECK_THAT(h, Catch::Contains("crossover at 0.943 requests/s: gpu, batch 1, keep below, cpu, "
                                "batch 1, keep above (the device changes)"));
  CHECK_THAT(h, Catch::Contains("crossover at 38.5 requests/s"));
  // At 1/s on 10 Wh: 4.93 h on the CPU, 4.83 h on the GPU.
  CHECK_THAT(h, Catch::Contains("<tr><td>1</td><td>4.93</td><td>4.83</td></tr>"));
  CHECK(render_deploy_section(EDPBENCH_FIXTURES "/platform/tx2").empty());
  CHECK(render_deploy_section("").empty());
}

// tests/fixtures/deploy/checks: a hand-made training item on the simulated
// source with three check rows, the last from before the realised-gap
// columns. The table puts each measured power beside both predictions.
TEST_CASE("report: the deploy section tables the checks against both predictions",
          "[deploy][report]") {
  const std::string h = render_deploy_section(EDPBENCH_FIXTURES "/deploy/checks");
  CHECK_THAT(h, Catch::Contains("<h3>The model against open-loop runs</h3>"));
  // 2/s: 135 arrivals against 120 expected; 1.75 W measured, 1.741 W from
  // the realised gaps (+0.5%), 1.682 W expected (+4.0%).
  CHECK_THAT(h, Catch::Contains("<tr><td>train:tensors/small, cpu</td><td>2</td><td>135 / "
                                "120</td><td>1.75</td><td>1.741 &plusmn; 0.021</td><td>+0.5%</"
                                "td><td>1.682 &plusmn; 0.02</td><td>+4.0%</td>"));
  CHECK_THAT(h, Catch::Contains("<td>2.36</td><td>&ndash;</td><td>&ndash;</td><td>2.412 "
                                "&plusmn; 0.069</td><td>-2.2%</td>"));
  // No check rows, no table.
  CHECK_THAT(render_deploy_section(EDPBENCH_FIXTURES "/deploy/cpu-gpu"),
             !Catch::Contains("open-loop runs"));
  // A check of the release policy says so (tests/fixtures/deploy/release-simulated).
  const std::string r = render_deploy_section(EDPBENCH_FIXTURES "/deploy/release-simulated");
  CHECK_THAT(r, Catch::Contains("<tr><td>infer/small, batch 16, cpu, release</td><td>25</td>"));
  CHECK_THAT(r, Catch::Contains("<tr><td>infer/small, batch 16, cpu</td><td>25</td>"));
}

// A deploy.csv holding a value no study writes draws no chart from it: the
// section says where the value is instead.
TEST_CASE("report: the deploy section of a deploy.csv with a corrupt value is a notice",
          "[report][deploy]") {
  std::string dir = "/tmp/edpbench-html-deploy-XXXXXX";
  REQUIRE(::mkdtemp(&dir[0]) != nullptr);
  std::ifstream in(EDPBENCH_FIXTURES "/deploy/cpu-gpu/deploy.csv");
  REQUIRE(in);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const size_t at = text.find(",1.5,0,");  // line 2: the host idle power, 1.5 W
  REQUIRE(at != std::string::npos);
  text.replace(at, 7, ",1e-300,0,");
  std::ofstream(dir + "/deploy.csv") << text;
  const std::string h = render_deploy_section(dir);
  CHECK_THAT(h, Catch::Contains("class=\"notice\""));
  CHECK_THAT(h, Catch::Contains("deploy.csv line 2: power_w = &#39;1e-300&#39; is smaller"));
  CHECK_THAT(h, !Catch::Contains("<svg"));
  ::unlink((dir + "/deploy.csv").c_str());
  ::rmdir(dir.c_str());
}
