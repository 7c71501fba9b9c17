// samples.csv end to end (DESIGN §5, power.timeline / --timeline): `run`
// writes every run's power over time, bounded by the stated cap (said, never
// silently exceeded), a resumed sweep keeps only the rows of items that are
// done, and `measure --timeline FILE` writes the same columns.
#include <catch2/catch.hpp>

#include <map>
#include <set>
#include <tuple>

#include "report/csv.h"
#include "report/json_read.h"
#include "report/samples_csv.h"
#include "support/fixtures.h"
#include "support/process.h"

using edp::testing::edpbench;

using edp::testing::kConstantTrace;

namespace {

// One tiny MLP configuration on the constant trace (VDD_IN 7.5 W,
// VDD_SYS_GPU 2.5 W), windows of at least `min_run_s`.
std::string timeline_config(const std::string& dir, const std::string& extra_power, int runs = 2,
                            double min_run_s = 0.3) {
  const std::string path = dir + "/tl.yaml";
  edp::testing::write_text(
      path, "name: tl\niterations: 2\nruns: " + std::to_string(runs) +
                "\nworkloads: [tensors]\nsizes:\n  tiny: {n: 4, d_in: 32, h: 8, d_out: 3}\n"
                "devices:\n  - {kind: cpu, threads: 1}\n"
                "power:\n  source: trace\n  trace: {file: " +
                kConstantTrace + "}\n  baseline_s: 0.2\n  min_run_s: " + std::to_string(min_run_s) +
                "\n" + extra_power);
  return path;
}

using RunId = std::tuple<std::string, std::string, std::string>;  // key, workload, run

std::map<RunId, size_t> rows_per_run(const edp::report::CsvTable& samples) {
  std::map<RunId, size_t> n;
  for (size_t r = 0; r < samples.rows.size(); ++r)
    ++n[RunId{samples.get(r, "key"), samples.get(r, "workload"), samples.get(r, "run")}];
  return n;
}

}  // namespace

TEST_CASE("run --timeline writes samples.csv for every run, its rate and count in context.json",
          "[cli][timeline]") {
  const std::string dir = edp::testing::temp_dir("timeline");
  const auto r =
      edpbench("run --timeline --config " + timeline_config(dir, "") + " --out " + dir + "/out");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const auto samples = edp::report::read_csv_file(dir + "/out/samples.csv");
  CHECK(samples.header == edp::report::samples_columns());
  const auto runs = edp::report::read_csv_file(dir + "/out/runs.csv");
  const auto per_run = rows_per_run(samples);
  REQUIRE(runs.rows.size() == 2);
  for (size_t i = 0; i < runs.rows.size(); ++i) {
    const RunId id{runs.get(i, "key"), runs.get(i, "workload"), runs.get(i, "run")};
    INFO(std::get<0>(id) << " run " << std::get<2>(id));
    REQUIRE(per_run.count(id) == 1);
    // Two rails, 20 points a second over the 0.5 s pre-roll and the window.
    const double window_s =
        std::stod(runs.get(i, "end_monotonic_s")) - std::stod(runs.get(i, "start_monotonic_s"));
    CHECK(per_run.at(id) / 2 == Approx(20 * (0.5 + window_s)).margin(4));
  }
  std::set<std::string> rails;
  for (size_t i = 0; i < samples.rows.size(); ++i) {
    rails.insert(samples.get(i, "rail"));
    if (samples.get(i, "rail") == "VDD_IN") CHECK(samples.get(i, "power_w") == "7.5");
  }
  CHECK(rails == std::set<std::string>{"VDD_IN", "VDD_SYS_GPU"});
  const auto ctx = edp::report::read_json_file(dir + "/out/context.json");
  const auto* tl = ctx.at({"power", "timeline"});
  REQUIRE(tl);
  CHECK(tl->find("hz")->number == 20);
  CHECK(tl->find("rows")->number == static_cast<double>(samples.rows.size()));
  CHECK(tl->find("full_at")->string.empty());

  // Without --timeline (and power.timeline) there is no samples.csv.
  const auto plain =
      edpbench("run --config " + timeline_config(dir, "") + " --out " + dir + "/plain");
  REQUIRE(plain.exit_code == 0);
  CHECK(edp::testing::slurp(dir + "/plain/samples.csv").empty());
  CHECK(!edp::report::read_json_file(dir + "/plain/context.json").at({"power", "timeline"}));
}

TEST_CASE("samples.csv stops at its cap, says where, and never passes it", "[cli][timeline]") {
  const std::string dir = edp::testing::temp_dir("timeline-cap");
  // About 2 x 200 x (0.5 + 1) = 600 rows a run (fewer when a busy machine
  // makes the sampler miss ticks): four runs pass 1000.
  const auto r =
      edpbench("run --config " +
               timeline_config(dir,
                               "  timeline: true\n  timeline_hz: 200\n  timeline_max_rows: 1000\n"
                               "  rate_hz: 200\n",
                               4, 1.0) +
               " --out " + dir + "/out");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const auto samples = edp::report::read_csv_file(dir + "/out/samples.csv");
  CHECK(samples.rows.size() <= 1000);
  CHECK(samples.rows.size() >= 300);
  const auto ctx = edp::report::read_json_file(dir + "/out/context.json");
  const std::string full_at = ctx.at({"power", "timeline", "full_at"})->string;
  REQUIRE(full_at.size() > 2);
  const std::string first_out = full_at.substr(full_at.size() - 1);  // "2", "3" or "4"
  CHECK(ctx.at({"power", "timeline", "rows"})->number == static_cast<double>(samples.rows.size()));
  CHECK_THAT(r.err, Catch::Contains("is full") && Catch::Contains("power.timeline_max_rows") &&
                        Catch::Contains(full_at));
  // Whole windows only: the one the cap left out and every later one have none.
  for (const auto& [id, n] : rows_per_run(samples)) CHECK(std::get<2>(id) < first_out);
}

TEST_CASE("a resumed sweep keeps only the samples of items that are done", "[cli][timeline]") {
  const std::string dir = edp::testing::temp_dir("timeline-resume");
  const std::string cfg = timeline_config(dir, "  timeline: true\n");
  REQUIRE(edpbench("run --config " + cfg + " --out " + dir + "/out").exit_code == 0);
  const std::string path = dir + "/out/samples.csv";
  const std::string before = edp::testing::slurp(path);
  // A crash mid-item leaves rows of an item that is not done and a torn line.
  edp::testing::write_text(path, before +
                                     "mlp,\"mlp:workload=autograd,size=tiny,device=cpu\","
                                     "autograd,1,0.1,VDD_IN,7.5,7.5\r\n"
                                     "mlp,\"mlp:workload=tensors,size=t");
  const auto r = edpbench("run --resume --config " + cfg + " --out " + dir + "/out");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(edp::testing::slurp(path) == before);

  // Not ours: refused with the file's name, never overwritten.
  edp::testing::write_text(path, "something,else\n");
  const auto bad = edpbench("run --resume --config " + cfg + " --out " + dir + "/out");
  CHECK(bad.exit_code == 2);
  CHECK_THAT(bad.err, Catch::Contains("samples.csv:1"));
  CHECK(edp::testing::slurp(path) == "something,else\n");
}

TEST_CASE("measure --timeline FILE writes samples.csv's columns for every run", "[cli][timeline]") {
  const std::string dir = edp::testing::temp_dir("timeline-measure");
  const auto r = edpbench("measure --runs 2 --trace " + kConstantTrace + " --timeline " + dir +
                          "/samples.csv --timeline-hz 50 -- sleep 0.3");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const auto samples = edp::report::read_csv_file(dir + "/samples.csv");
  CHECK(samples.header == edp::report::samples_columns());
  const auto per_run = rows_per_run(samples);
  REQUIRE(per_run.size() == 2);
  for (const auto& [id, n] : per_run) {
    CHECK(std::get<0>(id) == "measure:label=sleep 0.3");
    // 50 points a second over the window, and a pre-roll of at most 0.5 s
    // (the first run's is shorter: the sampler had just started).
    CHECK(n / 2 >= 50 * 0.3 - 2);
    CHECK(n / 2 <= 50 * (0.5 + 0.35) + 3);
  }
  CHECK(samples.get(0, "study") == "measure");
  // The rate has the config's range and message.
  const auto bad = edpbench("measure --timeline " + dir + "/x.csv --timeline-hz 0 -- true");
  CHECK(bad.exit_code == 2);
  CHECK_THAT(bad.err, Catch::Contains("--timeline-hz 0") && Catch::Contains("[1, 1000]"));
}
