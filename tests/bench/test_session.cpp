// The measuring session (bench/engine/session.h, issue 34): its options are
// checked by the config's key table with the config's messages, it collects
// the problems of opening without stopping at the first, chooses the total
// rails, keeps the baseline cadence, and reports its facts.
#include <catch2/catch.hpp>

#include <algorithm>
#include <csignal>
#include <thread>

#include "bench/engine/session.h"
#include "bench/engine/signals.h"
#include "bench/studies/config_schema.h"
#include "common/elapsed.h"
#include "common/errors.h"
#include "power/trace.h"
#include "support/fixtures.h"

using edp::testing::kConstantTrace;
using namespace edp;

namespace {

bench::SessionOptions trace_options() {
  bench::SessionOptions o;
  o.power.source = "trace";
  o.power.trace.file = kConstantTrace;
  o.sysfs_root = EDPBENCH_FIXTURES "/platform/tx2";
  return o;
}

std::string config_error(const std::string& power) {
  try {
    bench::parse_config("power: {" + power + "}\n", "c.yaml");
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

std::string session_error(const bench::SessionOptions& o, const bench::OptionNamer& name = {}) {
  try {
    bench::Session s(o, name);
  } catch (const UsageError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("session: options are checked by the config's key table, with its messages",
          "[bench][session]") {
  // The config's message for the value, and the session's for the same
  // value from another surface: the same text after the place.
  const auto same_as_config = [](const std::string& power, bench::SessionOptions o,
                                 const std::string& option) {
    const std::string c = config_error(power);
    const std::string s = session_error(o, [&](const std::string&) { return option; });
    INFO(c << " | " << s);
    REQUIRE(!c.empty());
    REQUIRE(!s.empty());
    const std::string message = c.substr(c.find(": '") + 2);  // after "c.yaml:1:8"
    CHECK(s.find(message) != std::string::npos);
  };
  bench::SessionOptions o = trace_options();
  o.power.rate_hz = 0.5;  // the monitor took (0, 10000] before: now the config's [1, 10000]
  same_as_config("rate_hz: 0.5", o, "--rate-hz");
  o = trace_options();
  o.power.ina226.address = 0x50;
  same_as_config("ina226: {address: 80}", o, "ina226_address");
  o = trace_options();
  o.power.settle_s = -1;
  same_as_config("settle_s: -1", o, "await_period_s");
  o = trace_options();
  o.power.source = "nonsense";
  same_as_config("source: nonsense", o, "source");
  o = trace_options();
  o.power.baseline_s = std::nan("");
  CHECK_THAT(session_error(o), Catch::Contains("power.baseline_s nan: 'baseline_s' must be a "
                                               "number"));
  // Every problem at once, each named as the surface names it.
  o = trace_options();
  o.power.rate_hz = 0;
  o.cooldown_s = -2;
  const std::string both =
      session_error(o, [](const std::string& path) { return "<" + path + ">"; });
  CHECK_THAT(both, Catch::Contains("<power.rate_hz> 0: 'rate_hz' = 0 is out of range [1, 10000]") &&
                       Catch::Contains("<cooldown_s> -2: 'cooldown_s' = -2 is out of range"));
  // The session's keys are the config's power: section and the waits.
  const auto& keys = bench::session_option_keys();
  CHECK(std::find(keys.begin(), keys.end(), "power.ina226.force") != keys.end());
  CHECK(std::find(keys.begin(), keys.end(), "cooldown_s") != keys.end());
  CHECK(std::find(keys.begin(), keys.end(), "runs") == keys.end());
}

TEST_CASE("session: opening problems are collected with the key to fix", "[bench][session]") {
  bench::SessionOptions o = trace_options();
  o.power.trace.file = "/nonexistent/trace.csv";
  bench::Session missing(o);
  REQUIRE(missing.problems().size() == 1);
  CHECK(missing.problems()[0].key == "power.trace.file");
  CHECK_FALSE(missing.measures_energy());
  CHECK_THROWS_AS(missing.throw_problems(), UsageError);

  o = trace_options();
  o.power.total_rails = {"VDD_IN", "VDD_SYS_GPU"};  // nested: the GPU rail is inside VDD_IN
  bench::Session nested(o);
  REQUIRE(nested.problems().size() == 1);
  CHECK(nested.problems()[0].key == "power.total_rails");
  CHECK(nested.total_rails().empty());

  bench::Session ok(trace_options());
  CHECK(ok.problems().empty());
  CHECK(ok.total_rails() == std::vector<std::string>{"VDD_IN"});
  CHECK_THAT(ok.total_rails_why(), Catch::Contains("VDD_IN"));
  CHECK(ok.platform().is_jetson());  // the fake TX2 tree
}

TEST_CASE("session: baselines by cadence and by request, and its facts", "[bench][session]") {
  bench::SessionOptions o = trace_options();
  o.power.baseline_s = 0.1;
  o.power.baseline_every = 2;
  bench::Session s(o);
  std::vector<std::string> log;
  s.log_to([&](const std::string& line) { log.push_back(line); });
  s.start();
  CHECK(s.settle());                 // an instantaneous trace: nothing to wait for
  CHECK(s.update_interval_s() > 0);  // stated by the trace before the sampler saw a change

  const auto first = s.baseline_for("host", "item 1");
  REQUIRE(first);
  CHECK(first->total_w == Approx(7.5).epsilon(1e-6));  // VDD_IN alone, not VDD_IN + GPU
  CHECK(first->before == "item 1");
  s.baseline_used("host");
  const auto again = s.baseline_for("host", "item 2");  // used once of every 2: the same one
  REQUIRE(again);
  CHECK(again->before == "item 1");
  s.baseline_used("host");
  CHECK(s.baseline_for("host", "item 3")->before == "item 3");  // due again
  CHECK(s.baseline_for("gpu:0", "item 4")->state == "gpu:0");   // each state its own
  CHECK(s.baselines().size() == 3);
  CHECK(std::count_if(log.begin(), log.end(), [](const std::string& l) {
          return l.find("measuring idle power") != std::string::npos;
        }) == 3);

  const bench::Baseline asked = s.measure_baseline("deploy:gated", "asked", 0.1);
  CHECK(s.current_baseline("deploy:gated")->before == "asked");
  CHECK(asked.total_w == Approx(7.5).epsilon(1e-6));

  const bench::SessionFacts f = s.facts();
  CHECK(f.source == "trace");
  CHECK(f.total_rails == std::vector<std::string>{"VDD_IN"});
  CHECK(f.baselines.size() == 4);
  REQUIRE(f.reported_baseline);
  CHECK(f.reported_baseline->before == "item 3");  // host's current one
  CHECK(f.rail_timing.at("VDD_IN") == "instantaneous");
  CHECK(f.rate_hz == 100);
}

TEST_CASE("session: no baseline without a sensor or with baseline_s 0, no total, no idle total",
          "[bench][session]") {
  bench::SessionOptions o = trace_options();
  o.power.baseline_s = 0;
  bench::Session none(o);
  CHECK_FALSE(none.baseline_for("host", "x"));
  CHECK(std::isnan(bench::idle_total_w({}, {{"VDD_IN", 3.0}})));
  CHECK(std::isnan(bench::idle_total_w({"VDD_IN", "GPU"}, {{"VDD_IN", 3.0}})));
  CHECK(bench::idle_total_w({"VDD_IN"}, {{"VDD_IN", 3.0}, {"GPU", 1.0}}) == 3.0);
}

TEST_CASE("session: a stop request ends its waits", "[bench][session]") {
  bench::SessionOptions o = trace_options();
  o.cooldown_s = 30;
  bench::Session s(o);
  int stop = 0;
  s.stop_on([&] { return stop; });
  stop = SIGTERM;
  const auto t0 = SteadyClock::now();
  try {
    s.cool_down();
    FAIL("cool_down did not stop");
  } catch (const bench::Interrupted& i) {
    CHECK(i.signal == SIGTERM);
  }
  CHECK(seconds_since(t0) < 1);
}

// The deploy study's idle gaps (0.1 s, and what is left of a gap after a
// burst's tail) are pauses: a pause of 20 ms must not last the 50 ms that the
// stop-request poll sleeps between its checks.
TEST_CASE("session: a pause lasts what it was asked, not a whole poll", "[bench][session]") {
  bench::Session s(trace_options());
  std::vector<double> took;
  for (int i = 0; i < 5; ++i) {
    const auto t0 = SteadyClock::now();
    s.pause(0.02);
    took.push_back(seconds_since(t0));
  }
  std::sort(took.begin(), took.end());
  CHECK(took.front() >= 0.02);
  CHECK(took[2] < 0.045);  // the median, robust to a late wake-up under load
}

TEST_CASE("session: windows are judged on its total rails and rate", "[bench][session]") {
  bench::Session s(trace_options());
  const auto w = s.open_window("w", false);
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  report::RunRecord r;
  bench::WindowJudging j = s.judging(2.0);
  CHECK(j.total_rails == s.total_rails());
  CHECK(j.rate_hz == 100);
  CHECK(w->close(j, 1, r).empty());
  CHECK(r.energy_j == Approx(7.5 * r.time_s).epsilon(1e-6));
  CHECK(r.dynamic_energy_j == Approx(5.5 * r.time_s).epsilon(1e-6));
}
