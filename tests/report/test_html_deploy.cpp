// The report's deploy section (report/html_deploy.cpp) on the hand-made
// deploy.csv of tests/fixtures/deploy/cpu-gpu (its numbers worked by hand in
// tests/cli/test_cli_deploy.cpp): the chart of hours against rate with the
// two rates where the device changes marked, the decades' table, and
// nothing at all for a directory without a deploy.csv.
#include <catch2/catch.hpp>

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
