// `plan` is a dry run of the protocol `run` runs (issue 34): fed with the
// step times a run saw, the preview predicts that run's blocks, windows,
// low-confidence flags and run counts, item by item, for a sweep at two
// operating points. Both ask the same rules (bench/engine/rules.h); before,
// the preview re-derived the 20-interval minimum, the block rounding and the
// 10-update threshold. Trace source (a sensor that updates every 10 ms) on
// the fake TX2 tree; the items' steps sleep a known time.
#include <catch2/catch.hpp>

#include <chrono>
#include <fstream>
#include <map>
#include <thread>

#include "bench/protocol/protocol.h"
#include "bench/studies/config_schema.h"
#include "bench/studies/registry.h"
#include "bench/studies/study.h"
#include "bench/sweep/sweep_preview.h"
#include "support/process.h"

using namespace edp;

namespace {

// A step that sleeps `ms` (reset between runs does nothing).
class Sleep final : public Workload {
 public:
  Sleep(Backend& be, double ms) : Workload(be), ms_(ms) {}
  std::string name() const override { return "sleep"; }
  void step() override {
    std::this_thread::sleep_for(std::chrono::duration<double, std::milli>(ms_));
  }
  void reset() override {}
  double flop_per_step() const override { return 1e6; }
  double bytes_per_step() const override { return 0; }

 private:
  double ms_;
};

// VDD_IN alternates 5 and 6 W every 10 ms: an update interval of 10 ms.
std::string alternating_trace(const std::string& dir) {
  const std::string path = dir + "/alternating.csv";
  std::ofstream out(path);
  out << "t_s,VDD_IN_w,VDD_SYS_GPU_w\n";
  for (int i = 0; i < 100; ++i)
    out << i * 0.01 << "," << (i % 2 ? "6.0" : "5.0") << "," << (i % 2 ? "1.5" : "1.0") << "\n";
  return path;
}

struct Agreement {
  int items = 0;
  std::map<std::string, int> blocks;  // by key, as the run found them
  std::map<std::string, bool> low;
};

// Runs every item of `yaml`'s sweep with steps that sleep `step_ms`, then
// previews the same sweep fed with the step times the runs saw, and checks
// that the two agree item by item.
Agreement check_agreement(const std::string& yaml, double step_ms) {
  const bench::Config cfg = bench::parse_config(yaml, "agree.yaml");
  bench::Session session(bench::session_options(cfg, EDPBENCH_FIXTURES "/platform/tx2"));
  REQUIRE(session.problems().empty());
  session.start();
  // The sampler has seen the interval before the first window, as after a
  // baseline in `run`.
  for (int i = 0; i < 200 && session.meter().observed_update_interval_s() <= 0; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  bench::ProtocolHooks hooks(cfg);

  const std::vector<bench::PlanItem> planned = bench::plan_studies(cfg).items;
  REQUIRE(planned.size() == 2);  // one item at each of the two points
  std::map<std::string, double> seen_step_s;
  std::map<std::string, report::PartRecord> ran;
  for (bench::PlanItem item : planned) {
    for (auto& part : item.parts)
      part.make = [step_ms](Backend& be) { return std::make_unique<Sleep>(be, step_ms); };
    const report::ItemRecord rec = bench::run_protocol(session, hooks, item);
    INFO(item.key << ": " << rec.note);
    REQUIRE(rec.status == "ok");
    const report::PartRecord& part = rec.parts.at(0);
    double per_step = 0;
    for (const auto& r : part.run_records) per_step += r.time_s / item.settings.steps;
    seen_step_s[item.key] = per_step / part.run_records.size();
    ran[item.key] = part;
  }

  bench::PreviewOptions opt;
  opt.calibrate = false;
  opt.interval_probe_s = 0.5;
  opt.step_s = [&](const bench::PlanItem& item) { return seen_step_s.at(item.key); };
  const bench::SweepPreview preview = bench::preview_sweep(cfg, session, opt);
  REQUIRE(preview.interval_state == "known");
  REQUIRE(preview.rows.size() == planned.size());
  Agreement a;
  for (const auto& row : preview.rows) {
    const report::PartRecord& part = ran.at(row.key);
    INFO(row.key << ": preview " << row.blocks << " blocks, window " << row.window_s << " s ("
                 << row.window_rule << "), " << row.updates << " updates, low "
                 << row.low_confidence << ", " << row.runs << " runs");
    CHECK(row.runs == part.runs);
    for (const auto& r : part.run_records) {
      const double window_s = r.end_monotonic_s - r.start_monotonic_s;
      INFO("run " << r.run << ": " << r.blocks << " blocks, window " << window_s << " s, interval "
                  << r.update_interval_s << " s, low " << r.low_confidence << ", note " << r.note);
      CHECK(row.blocks == r.blocks);
      CHECK(row.window_s == Approx(window_s).epsilon(0.2));
      CHECK(row.low_confidence == (r.low_confidence ? "yes" : "no"));
    }
    ++a.items;
    a.blocks[row.key] = part.run_records.front().blocks;
    a.low[row.key] = part.run_records.front().low_confidence;
  }
  return a;
}

std::string sweep_yaml(const std::string& trace, const std::string& min_run_s) {
  return "iterations: 1\nruns: 2\nwarmup_iterations: 1\nworkloads: [tensors]\n"
         "sizes: {tiny: {n: 4, d_in: 16, h: 8, d_out: 2}}\n"
         "devices: [{kind: reference}]\n"
         "power: {source: trace, rate_hz: 500, baseline_s: 0, min_run_s: " +
         min_run_s + ", trace: {file: " + trace +
         "}}\n"
         "operating_points:\n"
         "  - {name: slow, cpu_max_khz: 960000}\n"
         "  - {name: fast, cpu_max_khz: 2035200}\n";
}

}  // namespace

TEST_CASE("plan's dry run agrees with the run on windows, blocks and low confidence",
          "[bench][plan][protocol]") {
  const std::string trace = alternating_trace(testing::temp_dir("preview-agrees"));
  // min_run_s: auto = 20 updates = 0.2 s: a 105 ms step needs 2 blocks, and
  // a window of ~21 updates is not low confidence.
  const Agreement automatic = check_agreement(sweep_yaml(trace, "auto"), 105);
  CHECK(automatic.items == 2);
  for (const auto& kv : automatic.blocks) CHECK(kv.second == 2);
  for (const auto& kv : automatic.low) CHECK_FALSE(kv.second);
  // min_run_s: 0: one 40 ms block, 4 updates: low confidence.
  const Agreement single = check_agreement(sweep_yaml(trace, "0"), 40);
  for (const auto& kv : single.blocks) CHECK(kv.second == 1);
  for (const auto& kv : single.low) CHECK(kv.second);
}
