// One record model (issue 34, stage 3): the window's field table
// (edpbench/window_fields.h) is where runs.csv's window columns, `measure
// --json`'s run objects and the monitor's WindowResult come from, and
// context.json is one struct (common/run_context.h) with one writer and one
// reader.
#include <catch2/catch.hpp>

#include <algorithm>
#include <set>

#include <nlohmann/json.hpp>

#include "bench/measure/measure_report.h"
#include "bench/sweep/context_json.h"
#include "common/run_context.h"
#include "edpbench/monitor.h"
#include "protocol_fixture.h"
#include "report/results_csv.h"

using namespace edp;

namespace {

std::vector<std::string> window_field_names() {
  std::vector<std::string> names;
#define EDP_NAME(type, field, initial, kind) names.push_back(#field);
  EDPBENCH_WINDOW_FIELDS(EDP_NAME)
#undef EDP_NAME
  return names;
}

}  // namespace

TEST_CASE(
    "record model: every window field is a runs.csv column, a measure --json key and "
    "a WindowResult member",
    "[record]") {
  // runs.csv: each window field but the baseline (a part's, in results.csv).
  const auto& runs = report::runs_columns();
  for (const auto& name : window_field_names()) {
    INFO(name);
    CHECK((std::count(runs.begin(), runs.end(), name) == 1) == (name != "baseline_w"));
  }

  bench::MeasureReport rep;
  bench::CommandRun run;
  run.record.run = 1;
  run.record.time_s = 0.5;
  run.record.cpu_share = 0.9;
  run.record.note = "a note";
  rep.runs.push_back(run);
  const auto doc = nlohmann::json::parse(bench::measure_json(rep));
  std::set<std::string> keys;
  for (const auto& [k, v] : doc.at("runs").at(0).items()) keys.insert(k);
  std::set<std::string> expected{"run", "exit_status", "failed", "rail_energy_j"};
  for (const auto& name : window_field_names()) expected.insert(name);
  CHECK(keys == expected);
  CHECK(doc.at("runs").at(0).at("cpu_share") == 0.9);
  CHECK(doc.at("runs").at(0).at("note") == "a note");
  CHECK(doc.at("runs").at(0).at("energy_j").is_null());  // NaN: not measured

  // WindowResult has the same members with the same initial values.
  const edpbench::WindowResult w;
  const report::RunRecord r;
  CHECK(std::isnan(w.energy_j));
  CHECK(std::isnan(r.energy_j));
  CHECK(w.lag_correction_s == r.lag_correction_s);
  CHECK(w.samples == r.samples);
}

TEST_CASE("context.json: run's file reads back through its struct and is written the same",
          "[record][context]") {
  testing::Fixture f;
  f.sweep.start_time = "2026-11-23T20:00:00Z";
  const std::string text = bench::context_json(f.sweep, true);
  const RunContext c = run_context_from_json(text);
  CHECK(c.power.total_rails == std::vector<std::string>{"VDD_IN"});
  CHECK(c.power.source == "trace");
  CHECK(c.complete);
  CHECK(c.config_yaml);
  CHECK(c.others.empty());  // every key it writes, it knows
  CHECK(to_context_json(c) == text);
}

TEST_CASE("context.json: older and looser layouts are read, unknown keys kept", "[context]") {
  const RunContext c = run_context_from_json(
      R"({"board_model": "Jetson TX2", "l4t": "R32.4.3",
          "power": {"source": "jetson", "total_rails": ["VDD_IN", "VDD_X"]},
          "board": {"nvpmodel": {"name": "MAXN"}}, "future_key": {"a": 1}})");
  CHECK(c.board_model() == "Jetson TX2");
  CHECK(c.l4t_release() == "R32.4.3");
  CHECK(c.nvpmodel_mode() == "MAXN");
  CHECK(c.power.total_rails == std::vector<std::string>{"VDD_IN", "VDD_X"});
  CHECK(c.complete);  // it does not say otherwise
  CHECK(to_context_json(c).find("\"future_key\": {\"a\":1}") != std::string::npos);
  CHECK_THROWS_AS(run_context_from_json("[1, 2]"), std::runtime_error);
  CHECK_FALSE(run_context_from_json(R"({"complete": false})").complete);
}

TEST_CASE("context.json: a key twice in one object is refused, not read as the last", "[context]") {
  CHECK_THROWS_WITH(run_context_from_json(R"({"complete": true, "complete": false})"),
                    Catch::Contains("\"complete\" twice in one object"));
  CHECK_THROWS_WITH(run_context_from_json(R"({"power": {"source": "a", "source": "b"}})"),
                    Catch::Contains("\"source\" twice"));
  // The same key in different objects is not a repeat.
  const RunContext c = run_context_from_json(
      R"({"power": {"source": "trace", "baselines": [{"source": "x"}, {"source": "y"}]},
          "board": {"model": "M", "gpu": {"model": "G"}}})");
  CHECK(c.power.source == "trace");
  CHECK(c.board_model() == "M");
}
