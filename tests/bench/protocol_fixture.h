// Drives the protocol (bench/protocol/protocol.h) without hardware: a constant-power
// trace meter and a workload whose steps sleep a chosen time per run.
#pragma once

#include <chrono>
#include <memory>
#include <thread>
#include <vector>

#include "bench/protocol/protocol.h"
#include "bench/studies/config_schema.h"
#include "bench/sweep/sweep.h"
#include "power/clock.h"
#include "power/trace.h"

namespace edp::testing {

constexpr double kPowerW = 5.0;

// Sleeps sleep_ms[run] per step, the run advancing at every reset() (the
// protocol resets before each run): noisy run times on purpose.
class SleepWorkload final : public Workload {
 public:
  SleepWorkload(Backend& be, std::vector<double> sleep_ms)
      : Workload(be), sleep_ms_(std::move(sleep_ms)) {}
  std::string name() const override { return "sleep"; }
  void step() override {
    std::this_thread::sleep_for(
        std::chrono::duration<double, std::milli>(sleep_ms_[run_ % sleep_ms_.size()]));
  }
  void reset() override { ++run_; }
  double flop_per_step() const override { return 1e6; }
  double bytes_per_step() const override { return 4e6; }

 private:
  std::vector<double> sleep_ms_;
  size_t run_ = 0;
};

inline bench::Part sleep_part(const std::string& name, std::vector<double> ms) {
  return {name, [ms](Backend& be) { return std::make_unique<SleepWorkload>(be, ms); }};
}

inline bench::Config config() {
  return bench::parse_config(
      "iterations: 2\nruns: 5\nwarmup_iterations: 1\n"
      "devices: [{kind: reference}]\n"
      "power: {source: none, baseline_s: 0}\n",
      "test.yaml");
}

struct Fixture {
  bench::Config cfg = config();
  bench::Session session;
  bench::Sweep sweep;          // what context_json reads
  bench::ProtocolHooks hooks;  // what run_protocol gets
  Fixture()
      : session(bench::session_options(cfg, ""), platform::Prober(""), meter()),
        sweep(cfg, session),
        hooks(cfg) {}

  static power::EnergyMeter meter() {
    power::TraceData data = power::parse_trace("t_s,VDD_IN_w\n0,5\n0.01,5\n", "constant.csv");
    std::vector<std::unique_ptr<power::Sensor>> sensors;
    sensors.push_back(std::make_unique<power::TraceSensor>(std::move(data), true, power::now_s()));
    return power::EnergyMeter::from_sensors(std::move(sensors), {});
  }

  bench::PlanItem item(const std::string& study, bench::Params params,
                       std::vector<bench::Part> parts) {
    bench::PlanItem it;
    it.study = study;
    it.params = std::move(params);
    it.key = bench::item_key(study, it.params);
    it.device = &cfg.devices.front();
    it.parts = std::move(parts);
    it.settings.warmup_steps = 1;
    it.settings.steps = 2;
    it.settings.runs = 5;
    it.label = it.key;
    return it;
  }
};

}  // namespace edp::testing
