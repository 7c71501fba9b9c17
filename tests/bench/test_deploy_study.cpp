// The deploy study (bench/studies/deploy, docs/deploy.md): its config section
// and the simulated source's keys, its plan, where the gating delay comes
// from (the simulated source, the TX2's railgate_delay, none), and the
// arrival schedules of its open-loop checks.
#include <catch2/catch.hpp>
#include <cmath>
#include <set>

#include "bench/studies/config_schema.h"
#include "bench/studies/deploy/deploy_arrivals.h"
#include "bench/studies/deploy/deploy_config.h"
#include "bench/studies/deploy/deploy_measure.h"
#include "bench/studies/registry.h"
#include "bench/studies/study.h"
#include "common/errors.h"
#include "platform/platform.h"
#include "power/simulated.h"
#include "report/deploy_csv.h"
#include "report/deploy_model.h"
#include "support/config_error.h"

using namespace edp::bench;
namespace dv = edp::report::deploy_values;

namespace {

const std::string kBase =
    "studies: [deploy]\n"
    "workloads: [tensors, autograd]\n"
    "sizes: {small: {n: 64, d_in: 150, h: 10, d_out: 15}}\n"
    "devices: [{kind: cpu}, {kind: gpu}]\n";

std::string deploy_error_of(const std::string& yaml) {
  return edp::testing::config_error(yaml, "d.yaml");
}

}  // namespace

TEST_CASE("deploy config: defaults, values and refusals", "[deploy][config]") {
  const Config d = parse_config(kBase, "d.yaml");
  CHECK(d.section<DeployConfig>().batches == std::vector<int64_t>{1, 4, 16, 64});
  CHECK(d.section<DeployConfig>().wake_after_s == std::vector<double>{0.1, 1, 10});
  CHECK(d.section<DeployConfig>().check_rates_hz.empty());
  const Config c = parse_config(kBase +
                                    "deploy: {sizes: [small], modes: [infer], batches: [2, 8], "
                                    "wake_after_s: [0.05, 2], check_rates_hz: [1.5, 20], "
                                    "arrivals: periodic, release: false}\n",
                                "d.yaml");
  CHECK(c.section<DeployConfig>().batches == std::vector<int64_t>{2, 8});
  CHECK(c.section<DeployConfig>().wake_after_s == std::vector<double>{0.05, 2});
  CHECK(c.section<DeployConfig>().check_rates_hz == std::vector<double>{1.5, 20});
  CHECK(c.section<DeployConfig>().arrivals == "periodic");
  CHECK_FALSE(c.section<DeployConfig>().release);
  // The section round-trips through config.yaml.
  const Config again = parse_config(to_yaml(c), "again.yaml");
  CHECK(again.section<DeployConfig>().wake_after_s == c.section<DeployConfig>().wake_after_s);
  CHECK(again.section<DeployConfig>().check_rates_hz == c.section<DeployConfig>().check_rates_hz);
  CHECK_THAT(deploy_error_of(kBase + "deploy: {wake_after_s: [0.1, 0.1]}\n"),
             Catch::Contains("lists 0.1 twice"));
  CHECK_THAT(deploy_error_of(kBase + "deploy: {wake_after_s: []}\n"),
             Catch::Contains("must name at least one value"));
  CHECK_THAT(deploy_error_of(kBase + "deploy: {bursts: 50}\n"),
             Catch::Contains("out of range [100"));
  CHECK_THAT(deploy_error_of(kBase + "deploy: {sizes: [huge]}\n"), Catch::Contains("huge"));
  CHECK_THAT(deploy_error_of(kBase + "deploy: {check_rates_hz: 5}\n"),
             Catch::Contains("must be a list of numbers"));
}

TEST_CASE("power.simulated: read, checked, and written only for its source", "[deploy][config]") {
  const Config c = parse_config(kBase +
                                    "power: {source: simulated, simulated: {idle_w: 3, cpu_w: 5, "
                                    "sleep_after_s: 0.2, sleep_w: 1, wake_j: 0.4}}\n",
                                "d.yaml");
  CHECK(c.power.simulated.sleep_after_s == 0.2);
  CHECK(c.power.simulated.wake_j == 0.4);
  CHECK_THAT(to_yaml(c), Catch::Contains("simulated: {idle_w: 3"));
  const Config plain = parse_config(kBase, "d.yaml");
  CHECK_THAT(to_yaml(plain), !Catch::Contains("simulated"));
  CHECK_THAT(deploy_error_of(kBase + "power: {simulated: {idle_w: -1}}\n"),
             Catch::Contains("out of range"));
}

TEST_CASE("deploy plan: a training step per program, the forward pass per batch", "[deploy]") {
  const Config c = parse_config(
      kBase + "deploy: {modes: [train, infer], batches: [1, 4], sizes: [small]}\n", "d.yaml");
  const std::vector<PlanItem> items = make_study("deploy")->plan(c);
  REQUIRE(items.size() == 8);  // (2 programs + 2 batches) x 2 devices
  std::set<std::string> keys;
  for (const auto& i : items) keys.insert(i.key);
  CHECK(keys.size() == items.size());
  CHECK(items[0].key == "deploy:mode=train,workload=tensors,size=small,device=cpu");
  const PlanItem& infer4 = items[7];
  CHECK(infer4.key == "deploy:mode=infer,workload=tensors,size=small,batch=4,device=gpu");
  CHECK(infer4.values.at("n") == 4);  // the batch is the forward pass's N
  CHECK(infer4.values.at("d_in") == 150);
  CHECK(infer4.parts.size() == 1);
  CHECK(infer4.parts[0].name == "forward");
  CHECK(make_study("deploy")->commit_file() == "deploy.csv");
}

TEST_CASE("deploy: the gating delay, from the simulated source or the board", "[deploy]") {
  Config c = parse_config(kBase, "d.yaml");
  const DeviceSpec& cpu = c.devices[0];
  const DeviceSpec& gpu = c.devices[1];
  const edp::platform::Platform tx2 = edp::platform::probe(EDPBENCH_FIXTURES "/platform/tx2");
  const edp::platform::Platform x86 = edp::platform::probe(EDPBENCH_FIXTURES "/platform/x86-vm");
  // A CPU has none; the TX2's GPU is rail-gated after its railgate_delay.
  CHECK(gate_delay(c, tx2, cpu).absent == dv::kNoGateOnCpu);
  CHECK(std::isinf(gate_delay(c, tx2, cpu).delay_s));
  const GateDelay board = gate_delay(c, tx2, gpu);
  CHECK(board.delay_s == 0.5);
  CHECK(board.source == dv::kGateFromBoard);
  CHECK(gate_delay(c, x86, gpu).absent == dv::kNoRailgateFile);
  edp::platform::Platform off = tx2;
  off.gpu_railgate_enable = 0;
  CHECK(gate_delay(c, off, gpu).absent == dv::kRailgateDisabled);
  // The simulated source sleeps whatever the device.
  c.power.source = "simulated";
  c.power.simulated.sleep_after_s = 0.3;
  CHECK(gate_delay(c, x86, cpu).delay_s == 0.3);
  CHECK(gate_delay(c, x86, cpu).source == dv::kGateFromSimulated);
}

TEST_CASE("deploy: open-loop arrivals, Poisson and periodic", "[deploy]") {
  const auto periodic = arrival_times(4, 10, true, 1);
  REQUIRE(periodic.size() == 39);  // 0.25, 0.5, ..., 9.75
  CHECK(periodic.front() == 0.25);
  CHECK(periodic.back() == Approx(9.75));
  const auto poisson = arrival_times(50, 200, false, 7);
  // 10000 expected, sd 100: within 5 sd; the same seed, the same schedule.
  CHECK(std::fabs(static_cast<double>(poisson.size()) - 10000) < 500);
  CHECK(poisson == arrival_times(50, 200, false, 7));
  CHECK(std::is_sorted(poisson.begin(), poisson.end()));
  double var = 0, prev = 0;
  for (double t : poisson) {
    var += (t - prev - 0.02) * (t - prev - 0.02);
    prev = t;
  }
  // Exponential gaps: the sd equals the mean, 20 ms.
  CHECK(std::sqrt(var / static_cast<double>(poisson.size())) == Approx(0.02).epsilon(0.05));
  // The count a check's realisation is set against: rate x length for
  // Poisson, the schedule's own for periodic (39, not 40: none at 10 s).
  CHECK(expected_arrivals(50, 200, false) == 10000);
  CHECK(expected_arrivals(4, 10, true) == 39);
  CHECK(expected_arrivals(0, 10, false) == 0);
}

// configs/deploy-simulated.yaml is the validation docs/deploy.md reports:
// it must load, and plan the one item whose checks the table shows.
TEST_CASE("deploy: the shipped validation config loads and plans its item", "[deploy]") {
  const Config c = load_config(EDPBENCH_CONFIGS "/deploy-simulated.yaml");
  CHECK(c.power.source == "simulated");
  CHECK(c.section<DeployConfig>().check_rates_hz == std::vector<double>{0.5, 2, 10});
  const std::vector<PlanItem> items = make_study("deploy")->plan(c);
  REQUIRE(items.size() == 1);
  CHECK(items[0].key == "deploy:mode=train,workload=tensors,size=small,device=cpu");
}

// configs/deploy-crossover-simulated.yaml is the Poisson validation across
// crossovers that docs/deploy.md reports: batch 1 and batch 4 of one size,
// each checked at the three rates.
TEST_CASE("deploy: the shipped crossover config loads and plans its two batches", "[deploy]") {
  const Config c = load_config(EDPBENCH_CONFIGS "/deploy-crossover-simulated.yaml");
  CHECK(c.power.source == "simulated");
  CHECK(c.section<DeployConfig>().arrivals == "poisson");
  CHECK(c.section<DeployConfig>().check_rates_hz == std::vector<double>{2, 6, 20});
  const std::vector<PlanItem> items = make_study("deploy")->plan(c);
  REQUIRE(items.size() == 2);
  CHECK(items[0].key == "deploy:mode=infer,workload=tensors,size=small,batch=1,device=cpu");
  CHECK(items[1].key == "deploy:mode=infer,workload=tensors,size=small,batch=4,device=cpu");
}

// configs/deploy-paper-sizes-simulated.yaml makes docs/deploy.md's chart for
// the paper's sizes: a training step of each program at each size.
TEST_CASE("deploy: the shipped paper-sizes config plans every program at every size", "[deploy]") {
  const Config c = load_config(EDPBENCH_CONFIGS "/deploy-paper-sizes-simulated.yaml");
  CHECK(c.power.source == "simulated");
  const std::vector<PlanItem> items = make_study("deploy")->plan(c);
  REQUIRE(items.size() == 9);
  CHECK(items[0].key == "deploy:mode=train,workload=tensors,size=small,device=cpu");
  CHECK(items[8].key == "deploy:mode=train,workload=custom_relu,size=large,device=cpu");
}

namespace {

// The simulated source read as the sampler reads it (every 5 ms), on
// scripted clocks: `busy` seconds of one busy CPU, or idle.
struct SimulatedMachine {
  double now = 0, process = 0;
  edp::power::SimulatedSensor sensor;
  SimulatedMachine()
      : sensor(options(),
               {[this] { return now; }, [this] { return process; }, [] { return 0.0; }}) {
    read();
  }
  static edp::power::SimulatedOptions options() {
    edp::power::SimulatedOptions o;  // configs/deploy-release-simulated.yaml's
    o.idle_w = 2;
    o.cpu_w = 4;
    o.sleep_after_s = 0.3;
    o.sleep_w = 0.5;
    o.wake_j = 0.4;
    return o;
  }
  double read() {
    double v = NAN;
    std::string err;
    REQUIRE(sensor.read(&v, &err) == 0);
    return v;
  }
  void run(double seconds, bool busy) {
    for (int i = 0; i < static_cast<int>(std::lround(seconds / 0.005)); ++i) {
      now += 0.005;
      if (busy) process += 0.005;
      read();
    }
  }
};

}  // namespace

TEST_CASE("deploy: a first burst is priced against the idle it would have had anyway", "[deploy]") {
  // A cold window as cold_starts() takes it: the last cycle ended (its
  // context released), the window opens 40 ms later, idles to the gap, a
  // cold cycle of 60 ms of one busy CPU, a 20 ms tail. The cycle costs
  // (2 + 4) W x 60 ms = 0.36 J, and 0.4 J more to wake the machine when the
  // gap outlasts its 0.3 s sleep delay: the known answers.
  for (const double gap : {0.1, 1.0}) {
    INFO("gap " << gap << " s");
    SimulatedMachine m;
    m.run(0.05, true);  // the cycle before
    m.run(0.04, false);
    const double before_j = m.read();
    m.run(gap - 0.04, false);
    m.run(0.06, true);
    m.run(0.02, false);
    const double window_j = m.read() - before_j;
    // Released, the machine idles awake (2 W, measured after a release) up
    // to the 0.3 s delay, and asleep (0.5 W) past it.
    edp::report::IdleProfile host;
    host.awake_w.value = 2;
    host.gated_w.value = 0.5;
    host.gate_delay_s = 0.3;
    const double first_j = edp::report::first_burst_j(host, {window_j, 0.04, gap - 0.04, 0.02});
    // The sleep starts on a read: one 5 ms read interval at 2 - 0.5 W of
    // slack (7.5 mJ), and a little for rounding.
    CHECK(first_j == Approx(gap > 0.3 ? 0.76 : 0.36).margin(0.008));
  }
}
