// The deploy model against a real open-loop run: the deploy.csv that
// configs/deploy-crossover-simulated.yaml wrote on a 2-core x86 machine (the
// simulated source; docs/deploy.md, "Poisson arrivals across crossovers"),
// kept as tests/fixtures/deploy/crossover-simulated. Inference at batch 1 and
// 4 served Poisson requests at 2, 6 and 20/s for 60 s each. What the model
// says from the items' own measurements must hold in that run: each check's
// power within 2% of the prediction from its realised gaps, and under a 2 s
// latency objective the choice that changes with the rate (batch 1, batch 4,
// batch 1) ranks the measured powers and latencies the same way.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <map>

#include "report/deploy_csv.h"
#include "report/deploy_model.h"
#include "report/deploy_recommend.h"

using namespace edp::report;

namespace {

// rate -> batch -> the check row's index
std::map<double, std::map<int, size_t>> checks_by_rate(const CsvTable& t) {
  std::map<double, std::map<int, size_t>> out;
  for (size_t r = 0; r < t.rows.size(); ++r)
    if (t.get(r, "measure") == "check")
      out[std::stod(t.get(r, "rate_hz"))][std::stoi(t.get(r, "batch"))] = r;
  return out;
}

double column(const CsvTable& t, size_t r, const char* name) { return std::stod(t.get(r, name)); }

}  // namespace

TEST_CASE("validation run: every check within 2% of its realised-gap prediction", "[deploy]") {
  const CsvTable t = load_deploy_csv(EDPBENCH_FIXTURES "/deploy/crossover-simulated");
  const auto checks = checks_by_rate(t);
  REQUIRE(checks.size() == 3);
  for (const auto& [rate, by_batch] : checks) {
    REQUIRE(by_batch.size() == 2);
    for (const auto& [batch, r] : by_batch) {
      INFO("rate " << rate << ", batch " << batch);
      CHECK(t.get(r, "status") == "ok");
      CHECK(column(t, r, "time_s") >= 60);
      CHECK(std::fabs(column(t, r, "error_realised")) < 0.02);
      // The column is the measurement against the prediction.
      CHECK(column(t, r, "error_realised") ==
            Approx(column(t, r, "power_w") / column(t, r, "predicted_realised_w") - 1));
    }
  }
}

TEST_CASE("validation run: the choice that changes with the rate ranks the measurements",
          "[deploy]") {
  const CsvTable t = load_deploy_csv(EDPBENCH_FIXTURES "/deploy/crossover-simulated");
  const std::vector<Candidate> cs = deploy_candidates(t, "crossover-simulated");
  REQUIRE(cs.size() == 2);
  const auto checks = checks_by_rate(t);
  const double objective_s = 2;
  const std::map<double, int> expected{{2, 1}, {6, 4}, {20, 1}};
  for (const auto& [rate, batch] : expected) {
    INFO("rate " << rate);
    const Choice c = choose(cs, {rate, Arrivals::poisson}, objective_s);
    REQUIRE(c.chosen);
    CHECK(c.standings[*c.chosen].candidate->batch == batch);
    const size_t b1 = checks.at(rate).at(1), b4 = checks.at(rate).at(4);
    if (rate == 2) {
      // Batch 4 draws less but misses the objective, predicted and measured.
      CHECK_FALSE(c.standings[1].prediction.feasible);
      CHECK(column(t, b4, "latency_p99_s") > objective_s);
      CHECK(column(t, b1, "latency_p99_s") < objective_s);
    } else {
      const size_t chosen = batch == 1 ? b1 : b4, other = batch == 1 ? b4 : b1;
      CHECK(column(t, chosen, "power_w") < column(t, other, "power_w"));
      CHECK(column(t, chosen, "latency_p99_s") < objective_s);
    }
  }
  // The rates where the choice changes lie between the checked ones.
  const auto x = rate_crossovers(cs, Arrivals::poisson, objective_s, 1, 30);
  REQUIRE(x.size() >= 2);
  CHECK(x[0].rate_hz > 2);
  CHECK(x[0].rate_hz < 6);
  CHECK(x[1].rate_hz > 6);
  CHECK(x[1].rate_hz < 20);
}

// The release policy against a real open-loop run: the deploy.csv that
// configs/deploy-release-simulated.yaml wrote (docs/deploy.md, "Cold starts"),
// kept as tests/fixtures/deploy/release-simulated: inference at batch 16,
// the same Poisson requests at 5 and 25/s served with the context kept and
// released. The simulated machine knows no contexts and a cold cycle does
// a warm burst's work and more, so `release` must never be the choice.
TEST_CASE("release validation run: the host state, the cold costs and the checks", "[deploy]") {
  const CsvTable t = load_deploy_csv(EDPBENCH_FIXTURES "/deploy/release-simulated");
  std::map<std::string, std::pair<double, double>> cold_j;  // state -> energy_j, its CI
  size_t checks = 0;
  for (size_t r = 0; r < t.rows.size(); ++r) {
    const std::string measure = t.get(r, "measure"), state = t.get(r, "state");
    INFO("row " << r << ": " << measure << ", " << state << ", rate " << t.get(r, "rate_hz"));
    if (measure == "idle" && state == "host") {
      // Right after a release the simulated machine is awake: idle_w = 2 W
      // (the sweep's baseline, taken asleep, is sleep_w = 0.5 W).
      CHECK(column(t, r, "power_w") == Approx(2).epsilon(0.02));
      CHECK_THAT(t.get(r, "note"), Catch::Contains("right after a cold burst"));
    }
    if (measure == "cold")
      cold_j[state] = {column(t, r, "energy_j"), column(t, r, "energy_j_ci95")};
    if (measure != "check") continue;
    ++checks;
    CHECK(t.get(r, "status") == "ok");
    CHECK(column(t, r, "time_s") >= 60);
    const double error = std::fabs(column(t, r, "error_realised"));
    if (state == "context") {
      CHECK(error < 0.02);
    } else {
      // A released check books a cold start (0.8 to 1.3 J, from 5 cycles
      // per gap) for every burst where a kept one books a warm burst
      // (0.03 J): its prediction carries their scatter, 3.9% at 25/s.
      // Within 2%, or within that CI where it is wider.
      const double ci =
          column(t, r, "predicted_realised_w_ci95") / column(t, r, "predicted_realised_w");
      CHECK(error < std::max(0.02, ci));
      CHECK(ci < 0.05);
    }
  }
  CHECK(checks == 4);  // 5 and 25/s, kept and released
  // A cold start past the 0.3 s sleep delay costs the simulated wake
  // (wake_j = 0.4 J) more than the last one before it, within their CIs
  // (five cycles each: 0.465 J measured, the CIs 0.039 and 0.091 J).
  REQUIRE(cold_j.count("gated"));
  REQUIRE(cold_j.count("host"));
  const auto [gated_j, gated_ci] = cold_j["gated"];
  const auto [host_j, host_ci] = cold_j["host"];
  CHECK(std::fabs(gated_j - host_j - 0.4) < std::hypot(gated_ci, host_ci));
}

TEST_CASE("release validation run: release is never the choice, and the checks agree", "[deploy]") {
  const CsvTable t = load_deploy_csv(EDPBENCH_FIXTURES "/deploy/release-simulated");
  const std::vector<Candidate> cs = deploy_candidates(t, "release-simulated");
  REQUIRE(cs.size() == 2);
  REQUIRE(cs[1].policy == "release");
  for (int i = 0; i <= 60; ++i) {
    const double rate = std::pow(10.0, -3 + i * 0.1);
    INFO("rate " << rate);
    const Choice c = choose(cs, {rate, Arrivals::poisson});
    if (c.chosen) CHECK(c.standings[*c.chosen].candidate->policy == "keep");
  }
  // At each checked rate the measurements rank the policies as the model does.
  std::map<double, std::map<std::string, double>> measured;  // rate -> state -> W
  for (size_t r = 0; r < t.rows.size(); ++r)
    if (t.get(r, "measure") == "check")
      measured[column(t, r, "rate_hz")][t.get(r, "state")] = column(t, r, "power_w");
  REQUIRE(measured.size() == 2);
  for (const auto& [rate, by_state] : measured) {
    INFO("rate " << rate);
    CHECK(by_state.at("context") < by_state.at("host"));
  }
  // recommend --rate names the policy of a released check.
  DeployOptions o;
  o.load = {25, Arrivals::poisson};
  o.battery_wh = 10;
  const std::string text = deploy_recommendations_text(deploy_recommend(t, o), o);
  CHECK_THAT(text, Catch::Contains("model check, cpu, batch 16, release, at 25 requests/s"));
  CHECK_THAT(text, Catch::Contains("model check, cpu, batch 16, at 25 requests/s"));
  CHECK_THAT(text, Catch::Contains("choice: cpu, batch 16, keep"));
}
