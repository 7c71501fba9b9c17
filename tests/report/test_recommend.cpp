// The recommendation (DESIGN §5) on hand-made results with hand-computed
// answers, and `edpbench recommend` on the TX2 sweep fixture: the CSV contract
// and the exit codes.
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "common/errors.h"
#include "report/csv.h"
#include "report/recommend.h"
#include "report/report_data.h"
#include "support/binary.h"
#include "support/files.h"
#include "support/process.h"

using edp::testing::contains;
using edp::testing::edpbench;
using edp::testing::slurp;
using edp::testing::temp_dir;
using namespace edp::report;

namespace {

// One results.csv row with only the fields these tests care about.
struct Row {
  std::string workload = "tensors", size = "large", device, status = "ok";
  std::string time_s, time_ci95, energy_j, energy_ci95, edp_js, edp_std, edp_ci95;
  std::string runs = "10", power_source = "jetson", note;
};

CsvTable recommend_table(const std::vector<Row>& rows, bool with_edp_ci95 = false) {
  std::vector<std::string> header = required_result_columns();
  if (with_edp_ci95) header.push_back("edp_js_ci95");
  std::string text = csv_line(header);
  for (const Row& r : rows) {
    std::vector<std::string> f(header.size());
    auto set = [&](const std::string& col, const std::string& v) {
      for (size_t i = 0; i < header.size(); ++i)
        if (header[i] == col) f[i] = v;
    };
    set("workload", r.workload);
    set("size", r.size);
    set("device", r.device);
    set("status", r.status);
    set("runs", r.runs);
    set("time_s_mean", r.time_s);
    set("time_s_ci95", r.time_ci95);
    set("energy_j_mean", r.energy_j);
    set("energy_j_ci95", r.energy_ci95);
    set("edp_js_mean", r.edp_js);
    set("edp_js_std", r.edp_std);
    set("edp_js_ci95", r.edp_ci95);
    set("power_source", r.power_source);
    set("note", r.note);
    text += csv_line(f);
  }
  return parse_csv(text, "test");
}

Row cpu(std::string time, std::string energy, std::string edp, std::string edp_std = "0") {
  Row r;
  r.device = "cpu";
  r.time_s = std::move(time);
  r.energy_j = std::move(energy);
  r.edp_js = std::move(edp);
  r.edp_std = std::move(edp_std);
  return r;
}

Row gpu(std::string time, std::string energy, std::string edp, std::string edp_std = "0") {
  Row r = cpu(std::move(time), std::move(energy), std::move(edp), std::move(edp_std));
  r.device = "gpu";
  return r;
}

bool any_recommend_note(const Recommendation& rec, const std::string& needle) {
  for (const auto& n : rec.notes)
    if (contains(n, needle)) return true;
  return false;
}

}  // namespace

TEST_CASE("EDP objective picks the lower EDP and reports other/chosen", "[recommend]") {
  const auto recs = recommend(
      recommend_table({cpu("100", "700", "70000", "1000"), gpu("2", "5", "10", "1")}), {});
  REQUIRE(recs.size() == 1);
  const auto& r = recs[0];
  CHECK(r.workload == "tensors");
  CHECK(r.size == "large");
  CHECK(r.choice == "gpu");
  CHECK(r.cpu_value() == Approx(70000));
  CHECK(r.gpu_value() == Approx(10));
  REQUIRE(r.ratio);
  CHECK(*r.ratio == Approx(7000));
  REQUIRE(r.confident);
  CHECK(*r.confident);
  CHECK_FALSE(r.runs_per_charge);
}

TEST_CASE("energy and time objectives compare their own columns", "[recommend]") {
  // The GPU is faster but spends more energy: time picks it, energy does not.
  const auto t = recommend_table({cpu("10", "50", "500"), gpu("5", "80", "400")});
  RecommendOptions o;
  o.objective = Objective::time;
  auto recs = recommend(t, o);
  CHECK(recs[0].choice == "gpu");
  CHECK(*recs[0].ratio == Approx(2.0));
  CHECK(*recs[0].cpu_value() == Approx(10));
  o.objective = Objective::energy;
  recs = recommend(t, o);
  CHECK(recs[0].choice == "cpu");
  CHECK(*recs[0].ratio == Approx(1.6));
  CHECK(*recs[0].gpu_value() == Approx(80));
}

TEST_CASE("a deadline excludes the GPU: the CPU is chosen without a ratio", "[recommend]") {
  RecommendOptions o;
  o.deadline_s = 10;
  // The GPU has the better EDP but misses the 10 s deadline.
  const auto recs = recommend(recommend_table({cpu("5", "20", "100"), gpu("20", "2.5", "50")}), o);
  const auto& r = recs[0];
  CHECK(r.choice == "cpu");
  CHECK_FALSE(r.ratio);
  CHECK_FALSE(r.confident);
  CHECK(*r.cpu_value() == Approx(100));
  CHECK(*r.gpu_value() == Approx(50));  // still shown
  CHECK(any_recommend_note(r, "gpu misses the 10 s deadline"));
  CHECK(contains(recommendation_sentence(r, o), "only device that meets the deadline"));
}

TEST_CASE("a deadline that nobody meets gives choice none", "[recommend]") {
  RecommendOptions o;
  o.deadline_s = 1;
  const auto recs = recommend(recommend_table({cpu("5", "20", "100"), gpu("2", "10", "20")}), o);
  CHECK(recs[0].choice == "none");
  CHECK(recs[0].decided());
  CHECK_FALSE(recs[0].ratio);
  CHECK(contains(recommendations_csv(recs), "tensors,large,edp,none,100,20,,,\r\n"));
  CHECK(contains(recommendation_sentence(recs[0], o), "no device meets the 1 s deadline"));
}

TEST_CASE("a time exactly at the deadline meets it", "[recommend]") {
  RecommendOptions o;
  o.deadline_s = 2;
  const auto recs = recommend(recommend_table({cpu("5", "20", "100"), gpu("2", "10", "20")}), o);
  CHECK(recs[0].choice == "gpu");
}

TEST_CASE("confidence: CIs from edp_js_ci95 that overlap are not confident", "[recommend]") {
  Row c = cpu("10", "10", "100");
  c.edp_ci95 = "8";  // [92, 108]
  Row g = gpu("9", "10", "90");
  g.edp_ci95 = "5";  // [85, 95] overlaps
  auto recs = recommend(recommend_table({c, g}, true), {});
  CHECK(recs[0].choice == "gpu");
  CHECK(*recs[0].ratio == Approx(100.0 / 90.0));
  REQUIRE(recs[0].confident);
  CHECK_FALSE(*recs[0].confident);
  CHECK(contains(recommendation_sentence(recs[0], {}), "not confident"));

  g.edp_ci95 = "1";  // [89, 91] < 92: separate
  recs = recommend(recommend_table({c, g}, true), {});
  CHECK(*recs[0].confident);
}

TEST_CASE("confidence: without edp_js_ci95 the CI is Student t(runs-1) * std / sqrt(runs)",
          "[recommend]") {
  // runs = 10, std = 10: t(9) = 2.262, CI = 2.262 * 10 / sqrt(10) = 7.153.
  // cpu [92.85, 107.15]; gpu 85 -> [77.85, 92.15]: separate; gpu 86 -> upper
  // 93.15: overlaps. (With z = 1.96 instead of t both would be confident.)
  auto recs =
      recommend(recommend_table({cpu("10", "10", "100", "10"), gpu("9", "9", "85", "10")}), {});
  CHECK(*recs[0].confident);
  recs = recommend(recommend_table({cpu("10", "10", "100", "10"), gpu("9", "9", "86", "10")}), {});
  CHECK_FALSE(*recs[0].confident);
  const auto t = recommend_table({cpu("10", "10", "100", "10")});
  REQUIRE(row_ci95(t, 0, "edp_js"));
  CHECK(*row_ci95(t, 0, "edp_js") == Approx(2.262 * 10 / std::sqrt(10.0)));
}

TEST_CASE("confidence: a single run has no CI and is never confident", "[recommend]") {
  Row c = cpu("10", "10", "100", "");
  Row g = gpu("1", "1", "1", "");
  c.runs = g.runs = "1";
  const auto recs = recommend(recommend_table({c, g}), {});
  CHECK(recs[0].choice == "gpu");
  CHECK_FALSE(*recs[0].confident);
  CHECK(any_recommend_note(recs[0], "fewer than 2 runs"));
}

TEST_CASE("confidence: a negative CI or std is no CI, never a confident one", "[recommend]") {
  // results.csv is read from disk: value + ci < other - ci holds trivially
  // for ci = -5, so a negative cell would make any choice confident.
  Row c = cpu("10", "10", "1.40");
  Row g = gpu("10", "10", "1.45");
  c.edp_ci95 = "-5";
  g.edp_ci95 = "0.01";
  auto recs = recommend(recommend_table({c, g}, true), {});
  CHECK(recs[0].choice == "cpu");
  REQUIRE(recs[0].confident);
  CHECK_FALSE(*recs[0].confident);
  // Without a CI column the CI comes from the std: a negative one likewise.
  recs = recommend(
      recommend_table({cpu("10", "10", "1.40", "-50"), gpu("10", "10", "1.45", "0.01")}), {});
  CHECK_FALSE(*recs[0].confident);
  CHECK_FALSE(row_ci95(recommend_table({cpu("10", "10", "1.40", "-50")}), 0, "edp_js"));
}

TEST_CASE("battery: runs per charge beyond a count, and a ratio beyond a double, are unknown",
          "[recommend]") {
  RecommendOptions o;
  o.battery_wh = 1000;
  o.objective = Objective::energy;
  // 3.6e6 J / 1e-300 J overflows a 64-bit count (it was cast: undefined).
  auto recs = recommend(recommend_table({cpu("10", "1e-300", "1"), gpu("10", "1e-300", "1")}), o);
  CHECK_FALSE(recs[0].runs_per_charge);
  CHECK(any_recommend_note(recs[0], "runs per charge unknown"));
  // 1e300 / 1e-300 is inf: no ratio, and not confident.
  recs = recommend(recommend_table({cpu("10", "10", "1e-300"), gpu("10", "10", "1e300")}), {});
  CHECK(recs[0].choice == "cpu");
  CHECK_FALSE(recs[0].ratio);
  CHECK_FALSE(*recs[0].confident);
  CHECK_FALSE(contains(recommendation_sentence(recs[0], {}), "inf"));
}

TEST_CASE("battery: runs per charge is floor(Wh * 3600 / energy of the choice)", "[recommend]") {
  RecommendOptions o;
  o.battery_wh = 50;  // 180000 J; 180000 / 297 = 606.06 -> 606
  const auto recs =
      recommend(recommend_table({cpu("2000", "15570", "3.1e7"), gpu("24.5", "297", "7270")}), o);
  REQUIRE(recs[0].runs_per_charge);
  CHECK(*recs[0].runs_per_charge == 606);
  CHECK(recommendation_sentence(recs[0], o) ==
        "tensors/large: GPU \xE2\x80\x94 4264x lower EDP than CPU (confident); 606 runs per 50 Wh "
        "charge");
  // The charge is spent by the chosen device even when the objective is time.
  o.objective = Objective::time;
  o.battery_wh = 0.1;  // 360 J / 297 J = 1.2 -> 1
  CHECK(
      *recommend(recommend_table({cpu("2000", "15570", "3.1e7"), gpu("24.5", "297", "7270")}), o)[0]
           .runs_per_charge == 1);
}

TEST_CASE("missing energy (no sensor): EDP is undecided and nothing is invented", "[recommend]") {
  Row c = cpu("12", "", "", "");
  Row g = gpu("1", "", "", "");
  c.power_source = g.power_source = "none";
  const auto t = recommend_table({c, g});
  RecommendOptions o;
  o.battery_wh = 50;
  const auto recs = recommend(t, o);
  CHECK(recs[0].choice.empty());
  CHECK_FALSE(recs[0].decided());
  CHECK_FALSE(recs[0].cpu_value());
  CHECK_FALSE(recs[0].gpu_value());
  CHECK_FALSE(recs[0].ratio);
  CHECK_FALSE(recs[0].runs_per_charge);
  CHECK_FALSE(any_decided(recs));
  CHECK(any_recommend_note(recs[0], "EDP not measured on cpu and gpu (power source: none)"));
  CHECK(recommendations_csv(recs) ==
        std::string(kRecommendationCsvHeader) + "\r\ntensors,large,edp,,,,,,\r\n");
  CHECK(contains(recommendations_text(recs, o),
                 "tensors/large: undecided \xE2\x80\x94 EDP not measured"));

  // Time needs no sensor; the battery figure stays empty instead of guessed.
  o.objective = Objective::time;
  const auto by_time = recommend(t, o);
  CHECK(by_time[0].choice == "gpu");
  CHECK(*by_time[0].ratio == Approx(12));
  CHECK_FALSE(by_time[0].runs_per_charge);
  CHECK(any_recommend_note(by_time[0], "runs per charge unknown"));
}

TEST_CASE("zero, negative or non-finite values are not measurements", "[recommend]") {
  // An EDP of -1 J.s used to win as "the only device with a successful run";
  // a GPU energy of 0 J was chosen "confident" with no ratio.
  auto edp = recommend(recommend_table({cpu("1", "5", "-1"), gpu("1", "5", "5")}), {});
  CHECK(edp[0].choice.empty());
  CHECK_FALSE(edp[0].cpu_value());
  CHECK(any_recommend_note(edp[0], "cpu: edp_js_mean -1 is not a measurement"));
  CHECK(any_recommend_note(edp[0], "EDP not measured on cpu"));

  RecommendOptions o;
  o.objective = Objective::energy;
  o.battery_wh = 10;
  const auto energy = recommend(recommend_table({cpu("1", "5", "5"), gpu("1", "0", "0")}), o);
  CHECK(energy[0].choice.empty());
  CHECK_FALSE(energy[0].confident);
  CHECK_FALSE(energy[0].runs_per_charge);
  CHECK(any_recommend_note(energy[0], "gpu: energy_j_mean 0 is not a measurement"));

  for (const char* bad : {"nan", "inf", "-0"}) {
    const auto r = recommend(recommend_table({cpu("1", "5", bad), gpu("1", "5", "5")}), {});
    CHECK(r[0].choice.empty());
  }
  // The time objective still decides when only the energy is bad.
  o.objective = Objective::time;
  o.battery_wh.reset();
  const auto by_time = recommend(recommend_table({cpu("2", "5", "5"), gpu("1", "0", "0")}), o);
  CHECK(by_time[0].choice == "gpu");
  CHECK(*by_time[0].ratio == Approx(2));
}

TEST_CASE("failed and skipped rows do not compete but their notes are kept", "[recommend]") {
  Row g = gpu("", "", "");
  g.status = "failed";
  g.note = "cudaMalloc: out of memory";
  const auto recs = recommend(recommend_table({cpu("5", "20", "100"), g}), {});
  CHECK(recs[0].choice == "cpu");
  CHECK_FALSE(recs[0].ratio);
  CHECK_FALSE(recs[0].gpu_value());
  CHECK(any_recommend_note(recs[0], "gpu failed: cudaMalloc: out of memory"));
  CHECK(contains(recommendation_sentence(recs[0], {}), "only device with a successful run"));

  Row c = cpu("", "", "");
  c.status = "skipped";
  const auto none = recommend(recommend_table({c, g}), {});
  CHECK(none[0].choice.empty());
  CHECK(any_recommend_note(none[0], "no successful cpu or gpu run"));
}

TEST_CASE("several labels of one kind: the best one stands for the kind", "[recommend]") {
  Row c2 = cpu("9", "40", "400");
  c2.device = "cpu#2";
  Row ref = cpu("500", "1", "1");  // the reference backend never competes
  ref.device = "reference";
  const auto recs =
      recommend(recommend_table({cpu("10", "50", "500"), c2, gpu("20", "40", "800"), ref}), {});
  CHECK(recs[0].choice == "cpu");
  CHECK(*recs[0].cpu_value() == Approx(400));
  CHECK(*recs[0].ratio == Approx(2));
  CHECK(any_recommend_note(recs[0], "cpu#2 is the best cpu configuration"));
  CHECK(device_kind("cpu#2") == "cpu");
  CHECK(device_kind("gpu") == "gpu");
}

TEST_CASE("a tie goes to the CPU with ratio 1", "[recommend]") {
  const auto recs = recommend(recommend_table({cpu("5", "20", "100"), gpu("5", "20", "100")}), {});
  CHECK(recs[0].choice == "cpu");
  CHECK(*recs[0].ratio == Approx(1));
}

TEST_CASE("one recommendation per workload and size in the order of the file", "[recommend]") {
  Row a = cpu("5", "20", "100"), b = gpu("1", "2", "2"), c = cpu("50", "200", "1e4"),
      d = gpu("1", "2", "2");
  a.size = b.size = "small";
  c.workload = d.workload = "autograd";
  const auto recs = recommend(recommend_table({a, c, b, d}), {});
  REQUIRE(recs.size() == 2);
  CHECK(recs[0].workload == "tensors");
  CHECK(recs[0].size == "small");
  CHECK(recs[1].workload == "autograd");
  CHECK(recs[1].ratio == Approx(5000));
}

TEST_CASE("the CSV has exactly the contract's columns and true/false/empty fields", "[recommend]") {
  RecommendOptions o;
  o.battery_wh = 1;
  Row c = cpu("10", "10", "100");
  c.edp_ci95 = "8";
  Row g = gpu("9", "10", "90");
  g.edp_ci95 = "5";
  const std::string csv = recommendations_csv(recommend(recommend_table({c, g}, true), o));
  CHECK(csv ==
        "workload,size,objective,choice,cpu_value,gpu_value,ratio,confident,runs_per_charge\r\n"
        "tensors,large,edp,gpu,100,90,1.11111111,false,360\r\n");
  const CsvTable back = parse_csv(csv);
  CHECK(back.rows.size() == 1);
}

TEST_CASE("objective names", "[recommend]") {
  CHECK(parse_objective("edp") == Objective::edp);
  CHECK(parse_objective("energy") == Objective::energy);
  CHECK(parse_objective("time") == Objective::time);
  CHECK_FALSE(parse_objective("EDP"));
  CHECK_FALSE(parse_objective("ed2p"));
  CHECK(objective_column(Objective::edp) == "edp_js_mean");
}

TEST_CASE("load_results_csv names the file and every missing column", "[recommend]") {
  const std::string bad = EDPBENCH_FIXTURES "/report/bad_columns/results.csv";
  try {
    load_results_csv(bad);
    FAIL("expected a UsageError");
  } catch (const edp::UsageError& e) {
    const std::string msg = e.what();
    CHECK(contains(msg, bad));
    CHECK(contains(msg, "status"));
    CHECK(contains(msg, "edp_js_mean"));
    CHECK_FALSE(contains(msg, " workload"));  // present columns are not listed
  }
  CHECK_THROWS_AS(load_results_csv("/nonexistent/results.csv"), edp::UsageError);
  const auto t = load_results_csv(EDPBENCH_FIXTURES "/report/tx2_sweep/results.csv");
  CHECK(missing_columns(t, required_result_columns()).empty());
}

// ---- the CLI ---------------------------------------------------------------

namespace {

const std::string kSweep = EDPBENCH_FIXTURES "/report/tx2_sweep/results.csv";
const std::string kNoSensor = EDPBENCH_FIXTURES "/report/tx2_no_sensor/results.csv";

}  // namespace

TEST_CASE("recommend --csv - prints the contract CSV for the TX2 sweep", "[recommend][cli]") {
  const auto r = edpbench("recommend " + kSweep + " --csv -");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(
      r.out.rfind(
          "workload,size,objective,choice,cpu_value,gpu_value,ratio,confident,runs_per_charge\r\n",
          0) == 0);
  const CsvTable t = parse_csv(r.out);
  REQUIRE(t.rows.size() == 9);  // 3 workloads x 3 sizes
  for (size_t i = 0; i < t.rows.size(); ++i) {
    CHECK(t.get(i, "choice") == "gpu");
    CHECK(t.get(i, "confident") == "true");
    CHECK(t.get(i, "runs_per_charge").empty());
  }
}

TEST_CASE("recommend --csv FILE writes the file and prints the table", "[recommend][cli]") {
  const std::string dir = temp_dir("report");
  const auto r = edpbench("recommend " + kSweep + " --objective energy --battery-wh 50 --csv " +
                          dir + "/recommendation.csv");
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.out, Catch::Contains("tensors") && Catch::Contains("large"));  // the table
  CHECK_THAT(r.out, !Catch::Contains("workload,size,objective"));             // not the CSV
  const CsvTable t = parse_csv(slurp(dir + "/recommendation.csv"));
  CHECK(t.header == std::vector<std::string>{"workload", "size", "objective", "choice", "cpu_value",
                                             "gpu_value", "ratio", "confident", "runs_per_charge"});
  REQUIRE(t.rows.size() == 9);
  // tensors/large on the GPU: 296.918715 J per run; 50 Wh = 180000 J -> 606 runs.
  CHECK(t.get(2, "workload") == "tensors");
  CHECK(t.get(2, "size") == "large");
  CHECK(t.get(2, "objective") == "energy");
  CHECK(t.get(2, "runs_per_charge") == "606");
}

TEST_CASE("recommend prints plain language on stdout", "[recommend][cli]") {
  const auto r = edpbench("recommend " + kSweep + " --battery-wh 50");
  REQUIRE(r.exit_code == 0);
  CHECK(contains(r.out, "tensors/large: GPU \xE2\x80\x94 "));
  CHECK(contains(r.out, "lower EDP than CPU (confident); 606 runs per 50 Wh charge"));
}

TEST_CASE("recommend with a deadline: only the small GPU runs fit in 2 s", "[recommend][cli]") {
  const auto r = edpbench("recommend " + kSweep + " --objective time --deadline-s 2 --csv -");
  REQUIRE(r.exit_code == 0);
  const CsvTable t = parse_csv(r.out);
  for (size_t i = 0; i < t.rows.size(); ++i) {
    INFO(t.get(i, "workload") << "/" << t.get(i, "size"));
    CHECK(t.get(i, "choice") == (t.get(i, "size") == "small" ? "gpu" : "none"));
    CHECK(t.get(i, "ratio").empty());
  }
}

TEST_CASE("recommend exit codes", "[recommend][cli]") {
  SECTION("unknown objective: 2") {
    const auto r = edpbench("recommend " + kSweep + " --objective speed");
    CHECK(r.exit_code == 2);
    CHECK(contains(r.err, "speed"));
    CHECK(contains(r.err, "edp, energy, time"));
  }
  SECTION("a non-positive deadline: 2") {
    CHECK(edpbench("recommend " + kSweep + " --deadline-s 0").exit_code == 2);
  }
  SECTION("a missing file: 2, naming it") {
    const auto r = edpbench("recommend /nonexistent/results.csv");
    CHECK(r.exit_code == 2);
    CHECK(contains(r.err, "/nonexistent/results.csv"));
  }
  SECTION("a CSV without the required columns: 2, naming them") {
    const auto r = edpbench("recommend " EDPBENCH_FIXTURES "/report/bad_columns/results.csv");
    CHECK(r.exit_code == 2);
    CHECK(contains(r.err, "bad_columns/results.csv"));
    CHECK(contains(r.err, "edp_js_mean"));
  }
  SECTION("no sensor and objective EDP: nothing decided, 1, no file written") {
    const std::string dir = temp_dir("report");
    const auto r = edpbench("recommend " + kNoSensor + " --csv " + dir + "/rec.csv");
    CHECK(r.exit_code == 1);
    CHECK(contains(r.err, "not measured"));
    CHECK(contains(r.err, "could be decided"));
    CHECK_FALSE(std::ifstream(dir + "/rec.csv").good());
  }
  SECTION("no sensor and objective time: 0") {
    const auto r = edpbench("recommend " + kNoSensor + " --objective time --csv -");
    CHECK(r.exit_code == 0);
    CHECK(parse_csv(r.out).rows.size() == 9);
  }
}
