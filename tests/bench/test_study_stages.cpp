// The stages study: its plan, the rows of stages.csv and memory.csv, the
// columns against DESIGN §9.3, and energy differencing with CIs.
#include <catch2/catch.hpp>

#include <algorithm>

#include "bench/studies/registry.h"
#include "bench/studies/stages/stages_config.h"
#include "bench/studies/stages/stages_study.h"
#include "bench/studies/study.h"
#include "bench/sweep/results_store.h"
#include "report/stages_csv.h"

using namespace edp;

namespace {

bench::Config stages_config() {
  bench::Config c;
  c.studies = {"stages"};
  c.workloads = {"tensors", "autograd"};
  c.sizes = {{"tiny", 4, 10, 6, 2}, {"big", 8, 20, 6, 2}};
  c.edit<bench::StagesConfig>().sizes = {"tiny"};
  bench::DeviceSpec cpu;
  cpu.kind = "cpu";
  cpu.label = "cpu";
  c.devices = {cpu};
  return c;
}

// A part with runs of the given energies (per `iterations` steps).
report::PartRecord part(const std::string& name, std::vector<double> energies, int iterations) {
  report::PartRecord c;
  c.workload = name;
  c.iterations = iterations;
  for (double e : energies) {
    report::RunRecord r;
    r.energy_j = e;
    r.time_s = e / 10;
    c.run_records.push_back(r);
  }
  return c;
}

}  // namespace

TEST_CASE("stages plan: one item per workload x size x device with three parts",
          "[bench][stages]") {
  const bench::Config cfg = stages_config();
  const auto items = bench::make_study("stages")->plan(cfg);
  REQUIRE(items.size() == 2);
  CHECK(items[0].key == "stages:workload=tensors,size=tiny,device=cpu");
  CHECK(items[1].key == "stages:workload=autograd,size=tiny,device=cpu");
  REQUIRE(items[0].parts.size() == 3);
  CHECK(items[0].parts[0].name == "forward");
  CHECK(items[0].parts[1].name == "forward_backward");
  CHECK(items[0].parts[2].name == "step");
  CHECK(bench::make_study("stages")->commit_file() == "stages.csv");
  CHECK(bench::plan_sweep(cfg).size() == 2);
}

TEST_CASE("stages.csv and memory.csv columns are DESIGN §9.3's, then extras", "[bench][stages]") {
  const std::vector<std::string> stages{
      "workload",           "size", "device", "stage", "time_s", "share", "energy_j", "gflops",
      "compute_efficiency", "note"};
  CHECK(report::required_stages_columns() == stages);
  const auto& all = report::stages_columns();
  REQUIRE(all.size() > stages.size());
  CHECK(std::vector<std::string>(all.begin(), all.begin() + stages.size()) == stages);
  for (const char* extra : {"energy_j_ci95", "time_s_profiled", "status", "study", "key"})
    CHECK(std::find(all.begin(), all.end(), extra) != all.end());
  const std::vector<std::string> memory{"workload", "size",           "device",        "tensor",
                                        "kind",     "bytes_computed", "bytes_measured"};
  CHECK(report::required_memory_columns() == memory);
  // The lists as DESIGN §9.3 spells them.
  std::string joined, joined_mem;
  for (const auto& c : stages) joined += (joined.empty() ? "" : ",") + c;
  for (const auto& c : memory) joined_mem += (joined_mem.empty() ? "" : ",") + c;
  CHECK(joined ==
        "workload,size,device,stage,time_s,share,energy_j,gflops,compute_efficiency,note");
  CHECK(joined_mem == "workload,size,device,tensor,kind,bytes_computed,bytes_measured");
  // Both files are output files; stages.csv commits items, memory.csv does not.
  bool stages_commit = false, memory_seen = false;
  for (const auto& f : bench::output_files()) {
    if (f.name == "stages.csv") stages_commit = f.commit;
    if (f.name == "memory.csv") memory_seen = !f.commit;
  }
  CHECK(stages_commit);
  CHECK(memory_seen);
}

TEST_CASE("energy per stage by differencing, with the CI of both measurements", "[bench][stages]") {
  report::ItemRecord rec;
  rec.study = "stages";
  rec.key = "stages:workload=autograd,size=tiny,device=cpu";
  rec.params = {{"workload", "autograd"}, {"size", "tiny"}, {"device", "cpu"}};
  // Per 10 steps: forward 1 J, forward_backward 3 J, step 3.0x J.
  rec.parts = {part("forward", {1.0, 1.1, 0.9}, 10), part("forward_backward", {3.0, 3.1, 2.9}, 10),
               part("step", {3.0, 3.2, 2.9}, 10)};
  for (const char* s : {"forward", "backward", "update", "loss_readback"})
    rec.values[report::stage_values::time_s(s)] = 0.25;
  rec.values[report::stage_values::kStepWallS] = 1.05;
  rec.values[report::stage_values::flop("forward")] = 1e9;
  rec.values[report::stage_values::kPeakFlops] = 8e9;
  rec.values[report::stage_values::kFmaPeakFlops] = 5e9;
  const auto rows = report::stages_rows(rec);
  REQUIRE(rows.size() == report::stage_names().size());
  const auto& cols = report::stages_columns();
  auto col = [&](const std::vector<std::string>& r, const std::string& name) {
    return r[static_cast<size_t>(std::find(cols.begin(), cols.end(), name) - cols.begin())];
  };
  auto row = [&](const std::string& stage) {
    for (const auto& r : rows)
      if (col(r, "stage") == stage) return r;
    FAIL("no row " << stage);
    return rows[0];
  };
  CHECK(std::stod(col(row("forward"), "energy_j")) == Approx(0.1));
  CHECK(std::stod(col(row("backward"), "energy_j")) == Approx(0.2));
  CHECK(std::stod(col(row("update"), "energy_j")) == Approx(0.1 / 30).margin(1e-9));
  // CI of the difference: sqrt(ci_a^2 + ci_b^2).
  const auto d = report::difference(0.3, 0.03, 0.1, 0.04);
  CHECK(d.value == Approx(0.2));
  CHECK(d.ci95 == Approx(0.05));
  CHECK(d.significant());
  CHECK_FALSE(report::difference(0.3, 0.03, 0.29, 0.04).significant());
  // forward_backward and step runs overlap: the update is not significant.
  CHECK_THAT(col(row("update"), "note"), Catch::Contains("not significant"));
  CHECK_THAT(col(row("backward"), "note"), !Catch::Contains("not significant"));
  // Shares of the four stages of the step add up to 1; setup has none.
  double share = 0;
  for (const char* s : {"forward", "backward", "update", "loss_readback"})
    share += std::stod(col(row(s), "share"));
  CHECK(share == Approx(1.0));
  CHECK(col(row("setup"), "share").empty());
  // CE: 1e9 FLOP in 0.25 s = 4 GFLOP/s over an 8 GFLOP/s peak.
  CHECK(std::stod(col(row("forward"), "gflops")) == Approx(4.0));
  CHECK(std::stod(col(row("forward"), "compute_efficiency")) == Approx(0.5));
  CHECK(std::stod(col(row("forward"), "compute_efficiency_measured")) == Approx(0.8));
  // The step row: unprofiled 0.3 s/10 steps against the profiled 1.05 s.
  CHECK(std::stod(col(row("step"), "time_s_profiled")) == Approx(1.05));
  CHECK(col(row("step"), "key") == rec.key);
  CHECK(col(row("step"), "status") == "ok");
}
