// recommend --rate over a deploy.csv with open-loop checks
// (report/deploy_recommend.h): each check is printed under its task with the
// measured power, the prediction from the realised gaps and the expectation,
// on the hand-made fixture tests/fixtures/deploy/checks (a training item on
// the simulated source, the last check written before the realised-gap
// columns).
#include <catch2/catch.hpp>

#include "report/deploy_csv.h"
#include "report/deploy_recommend.h"

using namespace edp::report;

TEST_CASE("recommend --rate: the model's checks under their task, both predictions", "[deploy]") {
  const CsvTable t = load_deploy_csv(EDPBENCH_FIXTURES "/deploy/checks");
  DeployOptions o;
  o.load = {2, Arrivals::poisson};
  o.battery_wh = 10;
  const auto recs = deploy_recommend(t, o);
  REQUIRE(recs.size() == 1);
  REQUIRE(recs[0].checks.size() == 3);
  CHECK(recs[0].checks[1].item == "cpu");
  CHECK(recs[0].checks[1].arrivals == 135);
  CHECK(recs[0].checks[1].realised_w == 1.741);
  const std::string text = deploy_recommendations_text(recs, o);
  CHECK_THAT(text,
             Catch::Contains("  model check, cpu, at 2 requests/s: measured 1.75 W; predicted "
                             "from the realised gaps 1.741 W (+0.5%), expected 1.682 W "
                             "(+4.0%); 135 arrivals against 120 expected\n"));
  CHECK_THAT(text,
             Catch::Contains("  model check, cpu, at 10 requests/s: measured 2.36 W; predicted "
                             "from the realised gaps not written, expected 2.412 W (-2.2%)\n"));
  // A deploy.csv without checks prints none.
  const auto plain = deploy_recommend(load_deploy_csv(EDPBENCH_FIXTURES "/deploy/cpu-gpu"), o);
  CHECK_THAT(deploy_recommendations_text(plain, o), !Catch::Contains("model check"));
}
