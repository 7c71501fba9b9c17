// preview_sweep against a fake averaging sensor whose stated interval is
// known: windows against the interval, low confidence, min_run_s, baselines,
// problems collected, and the text and JSON forms.
#include <catch2/catch.hpp>

#include "bench/studies/config_schema.h"
#include "bench/studies/registry.h"
#include "bench/studies/study.h"
#include "bench/sweep/sweep_preview.h"

namespace {

using namespace edp;

// An averaging rail that states its update interval and reads 5 W.
class SlowSensor final : public power::Sensor {
 public:
  explicit SlowSensor(double interval_s) : interval_s_(interval_s) {
    rails_.push_back({"VDD_IN", power::ValueKind::power_w, power::Timing::averaging});
    rails_.back().averaging_s = interval_s;
  }
  std::string name() const override { return "slow"; }
  const std::vector<power::RailInfo>& rails() const override { return rails_; }
  size_t read(double* values, std::string*) noexcept override {
    values[0] = 5.0;
    return 0;
  }
  double reported_update_interval_s() const override { return interval_s_; }

 private:
  double interval_s_;
  std::vector<power::RailInfo> rails_;
};

bench::Config config(const std::string& extra) {
  return bench::parse_config(
      "iterations: 20\nruns: 3\nworkloads: [tensors, autograd]\n"
      "sizes: {tiny: {n: 4, d_in: 16, h: 8, d_out: 2},\n"
      "        mini: {n: 8, d_in: 32, h: 8, d_out: 2}}\n"
      "devices: [{kind: cpu, threads: 1}, {kind: reference}]\n" +
          extra,
      "test.yaml");
}

bench::SweepPreview summarize(const bench::Config& cfg, double interval_s,
                              const bench::PreviewOptions& opt) {
  std::vector<std::unique_ptr<power::Sensor>> sensors;
  sensors.push_back(std::make_unique<SlowSensor>(interval_s));
  bench::Session s(bench::session_options(cfg, ""), platform::Prober(""),
                   power::EnergyMeter::from_sensors(std::move(sensors), {}));
  return bench::preview_sweep(cfg, s, opt);
}

}  // namespace

TEST_CASE("plan summary: rows follow plan_sweep, windows against a stated slow interval",
          "[bench][plan]") {
  const bench::Config cfg = config("power: {baseline_s: 1}\n");
  bench::PreviewOptions opt;
  opt.interval_probe_s = 0;  // the stated interval is enough
  const bench::SweepPreview sum = summarize(cfg, 0.5, opt);
  CHECK(sum.problems.empty());
  CHECK(sum.update_interval_s == 0.5);
  CHECK(sum.averaging);
  const auto items = bench::plan_sweep(cfg);
  REQUIRE(sum.rows.size() == items.size());
  for (size_t i = 0; i < items.size(); ++i) {
    CHECK(sum.rows[i].key == items[i].key);
    CHECK(sum.rows[i].threads == 1);  // threads: 1 on cpu, 1 for reference
    // 20 steps of a tiny MLP are far shorter than 10 updates of 0.5 s.
    REQUIRE(sum.rows[i].window_s > 0);
    CHECK(sum.rows[i].window_s < 5.0);
    CHECK(sum.rows[i].low_confidence == "yes");
  }
  CHECK(sum.low_confidence_runs == static_cast<int>(items.size()) * 3);
  // One host baseline (no GPU state): settle 3 intervals, 1 s, the lag tail.
  CHECK(sum.baselines == 1);
  CHECK(sum.baselines_s == Approx(1.5 + 1 + 1.0));
  // Each run keeps the window open ~2 intervals for the lag correction.
  CHECK(sum.lag_tail_s == Approx(items.size() * 3 * 1.0));
  CHECK(sum.total_s > sum.lag_tail_s + sum.baselines_s);
  const std::string text = bench::format_preview(sum);
  // The text names an item by its label; plan --json gives its key.
  REQUIRE_FALSE(sum.rows.front().label.empty());
  CHECK_THAT(text, Catch::Contains(sum.rows.front().label));
  CHECK_THAT(bench::preview_json(sum), Catch::Contains(items.front().key));
  CHECK_THAT(text, Catch::Contains("averaging"));
  CHECK_THAT(bench::preview_json(sum), Catch::Contains("\"low_confidence\":\"yes\""));
}

TEST_CASE("plan summary: min_run_s lifts the windows above 10 updates", "[bench][plan]") {
  bench::PreviewOptions opt;
  opt.interval_probe_s = 0;
  const bench::SweepPreview fixed = summarize(config("power: {min_run_s: 6}\n"), 0.5, opt);
  for (const auto& r : fixed.rows) {
    CHECK(r.window_rule == "min_run_s");
    CHECK(r.window_s >= 6);
    CHECK(r.low_confidence == "no");
  }
  const bench::SweepPreview autos = summarize(config("power: {min_run_s: auto}\n"), 0.5, opt);
  for (const auto& r : autos.rows) {
    CHECK(r.window_rule == "auto");
    CHECK(r.window_s >= 10);  // 20 x 0.5 s
    CHECK(r.updates >= 20);
  }
  // baseline_every: 1 re-measures before every item after the first.
  const bench::SweepPreview every =
      summarize(config("power: {baseline_s: 1, baseline_every: 1}\n"), 0.5, opt);
  CHECK(every.baselines == static_cast<int>(every.rows.size()));
}

TEST_CASE("plan summary: no calibration leaves durations unknown, every bad device reported",
          "[bench][plan]") {
  bench::PreviewOptions opt;
  opt.calibrate = false;
  opt.interval_probe_s = 0;
  const bench::Config cfg = bench::parse_config(
      "iterations: 5\nworkloads: [tensors]\nsizes: {tiny: {n: 4, d_in: 16, h: 8, d_out: 2}}\n"
      "devices: [{kind: cpu, cpus: '4000'}, {kind: cpu, cpus: '5000'}, {kind: reference}]\n",
      "bad.yaml");
  const bench::SweepPreview sum = summarize(cfg, 0.5, opt);
  REQUIRE(sum.problems.size() == 2);
  CHECK_THAT(sum.problems[0], Catch::Contains("4000"));
  CHECK_THAT(sum.problems[1], Catch::Contains("5000"));
  CHECK(std::isnan(sum.total_s));
  for (const auto& r : sum.rows) {
    CHECK(std::isnan(r.step_s));
    if (r.device == "reference") CHECK(r.low_confidence == "?");
  }
  // Done items (run --resume) are listed but not estimated.
  opt.done = [](const std::string& key) { return key.find("reference") != std::string::npos; };
  const bench::SweepPreview resumed = summarize(cfg, 0.5, opt);
  CHECK(resumed.items_done == 1);
}
