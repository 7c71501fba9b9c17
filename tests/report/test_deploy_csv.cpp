// deploy.csv (report/deploy_csv.h): the rows of a hand-made deploy item (its
// idle states, the absent ones with why, the warm burst's energy from the
// part's runs, the wake costs over a warm burst), the candidates read back
// from them, and the columns documented in docs/deploy.md.
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "common/errors.h"
#include "report/csv.h"
#include "report/deploy_csv.h"

using namespace edp::report;
namespace dv = deploy_values;

namespace {

ItemRecord infer_item() {
  ItemRecord rec;
  rec.study = "deploy";
  rec.key = "deploy:mode=infer,workload=tensors,size=small,batch=4,device=cpu";
  rec.params = {{"mode", "infer"},
                {"workload", "tensors"},
                {"size", "small"},
                {"batch", "4"},
                {"device", "cpu"}};
  rec.device = "cpu";
  auto& v = rec.values;
  v["n"] = 4;
  v["d_in"] = 15000;
  v["h"] = 100;
  v["d_out"] = 150;
  v[dv::kGateDelayS] = 0.5;
  v[dv::kGateSource] = dv::kGateFromSimulated;
  v[dv::idle("context", "w")] = 2.0;
  v[dv::idle("context", "w_ci95")] = 0.01;
  v[dv::idle("context", "s")] = 2;
  v[dv::idle("context", "windows")] = 6;
  v[dv::idle("gated", "w")] = 0.5;
  v[dv::idle("gated", "w_ci95")] = 0.02;
  v[dv::burst("count")] = 100;
  v[dv::burst("mean_s")] = 0.002;
  v[dv::burst("ci95_s")] = 1e-4;
  v[dv::burst("p50_s")] = 0.0019;
  v[dv::burst("p90_s")] = 0.0025;
  v[dv::burst("p99_s")] = 0.003;
  for (const double t : {0.1, 1.0}) {
    v[dv::first("wake", t, "gap_s")] = t;
    v[dv::first("wake", t, "repeats")] = 5;
    v[dv::first("wake", t, "time_s")] = 0.0025;
    v[dv::first("wake", t, "time_s_ci95")] = 2e-4;
    v[dv::first("wake", t, "energy_j")] = t < 0.5 ? 0.03 : 0.45;
    v[dv::first("wake", t, "energy_j_ci95")] = 0.002;
  }
  PartRecord part;
  part.workload = "forward";
  part.iterations = 100;
  for (const double e : {2.0, 2.2}) {  // per block of 100 bursts: 0.020 and 0.022 J
    RunRecord r;
    r.energy_j = e;
    r.time_s = e / 10;  // 2 and 2.2 ms per burst
    part.run_records.push_back(r);
  }
  rec.parts.push_back(part);
  return rec;
}

CsvTable deploy_table(const std::vector<std::vector<std::string>>& rows) {
  return CsvTable{deploy_columns(), rows, {}};
}

}  // namespace

TEST_CASE("deploy.csv: states, the warm burst and the wake costs of one item", "[deploy]") {
  const CsvTable t = deploy_table(deploy_rows(infer_item()));
  REQUIRE(t.rows.size() == 6);  // host, context, gated, burst, two wakes
  CHECK(t.get(0, "state") == "host");
  CHECK(t.get(0, "status") == "absent");
  CHECK_THAT(t.get(0, "note"), Catch::Contains("power.baseline_s"));
  CHECK(t.get(1, "state") == "context");
  CHECK(t.get(1, "power_w") == "2");
  CHECK(t.get(2, "state") == "gated");
  CHECK(t.get(2, "gate_delay_s") == "0.5");
  CHECK_THAT(t.get(2, "note"), Catch::Contains("sleep_after_s"));
  // Energy per warm burst: 2.0 and 2.2 J per block of 100 bursts; the CI is
  // t(1) = 12.706 x s / sqrt(2) with s = 0.0014142.
  CHECK(t.get(3, "measure") == "burst");
  CHECK(std::stod(t.get(3, "energy_j")) == Approx(0.021));
  CHECK(std::stod(t.get(3, "energy_j_ci95")) == Approx(0.012706).epsilon(1e-4));
  CHECK(t.get(3, "latency_p99_s") == "0.003");
  CHECK(std::stod(t.get(3, "time_s")) == Approx(0.0021));  // busy per burst, back to back
  // The wake after 1 s finds the device gated (delay 0.5 s) and costs
  // 0.45 - 0.021 J, and 0.6 ms more than a warm single burst's median.
  CHECK(t.get(5, "measure") == "wake");
  CHECK(t.get(5, "state") == "gated");
  CHECK(t.get(4, "state") == "context");
  CHECK(std::stod(t.get(5, "extra_energy_j")) == Approx(0.429));
  CHECK(std::stod(t.get(5, "extra_time_s")) == Approx(0.0006));
  CHECK(t.get(5, "key") == infer_item().key);
}

TEST_CASE("deploy.csv: the candidates read back are the item's measurements", "[deploy]") {
  const auto cs = deploy_candidates(deploy_table(deploy_rows(infer_item())), "t");
  REQUIRE(cs.size() == 1);  // no cold starts: no released candidate
  const Candidate& c = cs[0];
  CHECK(c.task == "infer/small");
  CHECK(c.batch == 4);
  CHECK(c.policy == "keep");
  CHECK(c.idle.awake_w.value == 2.0);
  CHECK(c.idle.gated_w.value == 0.5);
  CHECK(c.idle.gate_delay_s == 0.5);
  CHECK(c.burst_j.value == Approx(0.021));
  CHECK(c.burst_s.value == Approx(0.0021));
  CHECK(c.burst_p99_s == 0.003);
  REQUIRE(c.wake.size() == 2);
  CHECK(c.wake[1].energy_j.value == Approx(0.429));
  CHECK(deploy_tasks(cs) == std::vector<std::string>{"infer/small"});
  // The model can answer for it at any rate: both sides of the delay are measured.
  CHECK(predict(c, {2, Arrivals::poisson}).feasible);
}

TEST_CASE("deploy.csv: a burst from one run has no CI, not an exact one", "[deploy]") {
  // runs: 1 is a valid config: one sample gives a CI half-width of 0 from
  // the statistics, which would read as exact and make a choice confident.
  ItemRecord rec = infer_item();
  rec.parts[0].run_records.resize(1);
  const CsvTable t = deploy_table(deploy_rows(rec));
  bool found = false;
  for (size_t r = 0; r < t.rows.size(); ++r) {
    if (t.get(r, "measure") != "burst") continue;
    found = true;
    CHECK_FALSE(t.get(r, "energy_j").empty());
    CHECK(t.get(r, "energy_j_ci95").empty());
    CHECK(t.get(r, "time_s_ci95").empty());
  }
  CHECK(found);
  const auto cs = deploy_candidates(t, "t");
  REQUIRE(cs.size() == 1);
  CHECK(std::isnan(predict(cs[0], {2, Arrivals::poisson}).power_ci95_w));
}

TEST_CASE("deploy.csv: an empty, non-numeric or negative CI cell is an unknown CI", "[deploy]") {
  for (const std::string bad : {"", "nan", "-0.004", "inf"}) {
    CsvTable t = deploy_table(deploy_rows(infer_item()));
    const int ci = t.column("energy_j_ci95");
    REQUIRE(ci >= 0);
    bool changed = false;
    for (size_t r = 0; r < t.rows.size(); ++r)
      if (t.get(r, "measure") == "burst") {
        t.rows[r][static_cast<size_t>(ci)] = bad;
        changed = true;
      }
    REQUIRE(changed);
    const auto cs = deploy_candidates(t, "t");
    REQUIRE(cs.size() == 1);
    INFO("energy_j_ci95 = '" << bad << "'");
    CHECK(std::isnan(cs[0].burst_j.ci95));
    CHECK(std::isnan(predict(cs[0], {2, Arrivals::poisson}).power_ci95_w));
  }
}

TEST_CASE("deploy.csv: cold starts give a released candidate idling in the host's states",
          "[deploy]") {
  ItemRecord rec = infer_item();
  rec.values[dv::idle("host", "w")] = 1.2;  // right after a release
  rec.values[dv::idle("host", "s")] = 5;
  rec.values[dv::kHostAfterRelease] = 1;
  for (const double t : {0.1, 1.0}) {
    rec.values[dv::first("cold", t, "gap_s")] = t;
    rec.values[dv::first("cold", t, "time_s")] = 0.3;
    rec.values[dv::first("cold", t, "energy_j")] = t < 0.5 ? 1.5 : 1.9;
  }
  const CsvTable t = deploy_table(deploy_rows(rec));
  CHECK_THAT(t.get(0, "note"), Catch::Contains("right after a cold burst"));
  // The cold start after 1 s follows the 0.5 s delay: it wakes from the gate.
  CHECK(t.get(t.rows.size() - 2, "state") == "host");
  CHECK(t.get(t.rows.size() - 1, "state") == "gated");
  const auto cs = deploy_candidates(t, "t");
  REQUIRE(cs.size() == 2);
  CHECK(cs[1].policy == "release");
  CHECK(cs[1].idle.awake_w.value == 1.2);
  // Past the delay a released device is gated as a kept one is.
  CHECK(cs[1].idle.gate_delay_s == 0.5);
  CHECK(cs[1].idle.gated_w.value == 0.5);
  REQUIRE(cs[1].wake.size() == 2);
  CHECK(cs[1].wake[0].energy_j.value == Approx(1.5 - 0.021));
  CHECK(cs[1].wake[1].energy_j.value == Approx(1.9 - 0.021));
  CHECK(cs[1].wake[0].time_s.value == Approx(0.2981));
}

TEST_CASE("deploy.csv: a check row sets the measured power against both predictions", "[deploy]") {
  ItemRecord rec = infer_item();
  auto& v = rec.values;
  v[dv::check(2, "seconds")] = 60.01;
  v[dv::check(2, "requests")] = 132;
  v[dv::check(2, "arrivals")] = 135;
  v[dv::check(2, "arrivals_expected")] = 120;
  v[dv::check(2, "measured_w")] = 1.75;
  v[dv::check(2, "predicted_w")] = 1.682;
  v[dv::check(2, "predicted_w_ci95")] = 0.02;
  v[dv::check(2, "realised_w")] = 1.74;
  v[dv::check(2, "realised_w_ci95")] = 0.021;
  v[dv::check(2, "latency_p99_s")] = 0.004;
  const CsvTable t = deploy_table(deploy_rows(rec));
  REQUIRE(t.rows.size() == 7);
  CHECK(t.get(6, "measure") == "check");
  CHECK(t.get(6, "rate_hz") == "2");
  CHECK(t.get(6, "repeats") == "132");
  CHECK(t.get(6, "arrivals") == "135");
  CHECK(t.get(6, "arrivals_expected") == "120");
  CHECK(std::stod(t.get(6, "error")) == Approx(1.75 / 1.682 - 1));
  CHECK(t.get(6, "predicted_realised_w") == "1.74");
  CHECK(t.get(6, "predicted_realised_w_ci95") == "0.021");
  CHECK(std::stod(t.get(6, "error_realised")) == Approx(1.75 / 1.74 - 1));
  CHECK(t.get(6, "status") == "ok");
  // Without the realisation (a deploy.csv from before it) the row still reads.
  v.erase(dv::check(2, "realised_w"));
  const CsvTable old = deploy_table(deploy_rows(rec));
  CHECK(old.get(6, "predicted_realised_w").empty());
  CHECK(old.get(6, "error_realised").empty());
  CHECK(old.get(6, "status") == "ok");
}

TEST_CASE("deploy.csv: absent states and skipped items say why", "[deploy]") {
  ItemRecord rec = infer_item();
  rec.values.erase(dv::kGateDelayS);
  rec.values.erase(dv::idle("gated", "w"));
  rec.values[dv::kGateAbsent] = dv::kNoGateOnCpu;
  const CsvTable t = deploy_table(deploy_rows(rec));
  CHECK(t.get(2, "status") == "absent");
  CHECK_THAT(t.get(2, "note"), Catch::Contains("cpuidle"));
  ItemRecord gpu = infer_item();
  gpu.status = "skipped";
  gpu.note = "no CUDA device: this build has no CUDA";
  gpu.parts[0].status = "skipped";
  const CsvTable s = deploy_table(deploy_rows(gpu));
  REQUIRE(s.rows.size() == 3);
  for (size_t r = 0; r < 3; ++r) {
    CHECK(s.get(r, "status") == "skipped");
    CHECK(s.get(r, "note") == gpu.note);
  }
  CHECK(deploy_candidates(s, "t").empty());
}

TEST_CASE("deploy.csv: a file without the columns is refused with its name", "[deploy]") {
  const CsvTable bad{{"mode", "device"}, {}, {}};
  CHECK_THROWS_WITH(deploy_candidates(bad, "x/deploy.csv"),
                    Catch::Contains("x/deploy.csv lacks the deploy.csv column(s) workload"));
}

TEST_CASE("deploy.csv: every column is documented in docs/deploy.md", "[deploy]") {
  std::ifstream in(EDPBENCH_CONFIGS "/../docs/deploy.md");
  REQUIRE(in);
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string doc = ss.str();
  for (const auto& c : deploy_columns()) CHECK_THAT(doc, Catch::Contains("| `" + c + "` |"));
}

// recommend and the report read deploy.csv through the one reader of
// untrusted files (common/safe_file.h): a directory means its deploy.csv; a
// link or a FIFO in its place is refused before a byte is read.
TEST_CASE("deploy.csv: read from a sweep directory, a link or a FIFO refused", "[deploy]") {
  std::string dir = "/tmp/edpbench-deploy-XXXXXX";
  REQUIRE(::mkdtemp(&dir[0]) != nullptr);
  std::string text = csv_line(deploy_columns());
  for (const auto& row : deploy_rows(infer_item())) text += csv_line(row);
  std::ofstream(dir + "/real.csv") << text;
  CHECK_THROWS_WITH(load_deploy_csv(dir), Catch::Contains(dir + "/deploy.csv: No such file"));
  REQUIRE(::symlink((dir + "/real.csv").c_str(), (dir + "/deploy.csv").c_str()) == 0);
  CHECK_THROWS_AS(load_deploy_csv(dir), edp::UsageError);
  ::unlink((dir + "/deploy.csv").c_str());
  REQUIRE(::mkfifo((dir + "/deploy.csv").c_str(), 0600) == 0);
  CHECK_THROWS_AS(load_deploy_csv(dir), edp::UsageError);  // and does not block
  ::unlink((dir + "/deploy.csv").c_str());
  REQUIRE(::rename((dir + "/real.csv").c_str(), (dir + "/deploy.csv").c_str()) == 0);
  const CsvTable t = load_deploy_csv(dir);
  CHECK(t.rows.size() == 6);
  CHECK(deploy_candidates(t, dir).size() == 1);
  ::unlink((dir + "/deploy.csv").c_str());
  ::rmdir(dir.c_str());
}

// A deploy.csv read from a file holds only values the study writes: a cell
// edited to 1e-300 W made a device last 1.7e300 hours on a charge, called
// confident, and a negative burst time read as "not measured".
TEST_CASE("deploy.csv: a value the study never writes is refused at its line and column",
          "[deploy]") {
  std::string dir = "/tmp/edpbench-deploy-values-XXXXXX";
  REQUIRE(::mkdtemp(&dir[0]) != nullptr);
  const std::string file = dir + "/deploy.csv";
  const CsvTable good = deploy_table(deploy_rows(infer_item()));
  // Writes the item's rows with `column` of its first `measure` row set to
  // `value`; returns that row's line in the file.
  const auto write = [&](const std::string& measure, const std::string& column,
                         const std::string& value, const char* column2 = nullptr,
                         const char* value2 = nullptr) {
    CsvTable t = good;
    size_t line = 0;
    for (size_t r = 0; r < t.rows.size() && !line; ++r)
      if (t.get(r, "measure") == measure && t.get(r, "status") == "ok") {
        t.rows[r][static_cast<size_t>(t.column(column))] = value;
        if (column2) t.rows[r][static_cast<size_t>(t.column(column2))] = value2;
        line = r + 2;
      }
    REQUIRE(line > 0);
    std::string text = csv_line(t.header);
    for (const auto& row : t.rows) text += csv_line(row);
    std::ofstream(file) << text;
    return line;
  };
  struct Bad {
    const char *measure, *column, *value, *why;
    const char *column2 = nullptr, *value2 = nullptr;  // a second cell of the row
  };
  for (const Bad& b : {Bad{"idle", "power_w", "1e-300", "is smaller than 1e-15 but not 0"},
                       Bad{"idle", "power_w", "-2", "is below zero"},
                       Bad{"idle", "power_w", "2e12", "is larger than 1e+09"},
                       Bad{"idle", "power_w_ci95", "nan", "is not a decimal number"},
                       Bad{"burst", "time_s", "0", "is a burst that took no time"},
                       Bad{"burst", "time_s", "-0.01", "is below zero"},
                       Bad{"burst", "energy_j", "inf", "is not a decimal number"},
                       Bad{"burst", "energy_j", "-0.0971548194", "is below zero"},
                       Bad{"burst", "latency_p99_s", "1e-20", "is smaller than 1e-15"},
                       Bad{"burst", "latency_p99_s", "1e-310", "is not a decimal number"},
                       Bad{"wake", "extra_energy_j", "-1e300", "is larger than 1e+09"},
                       Bad{"wake", "idle_s", "x", "is not a decimal number"},
                       // The extra cost is the first burst's less the warm
                       // burst's (0.03 - 0.021 J): -0.756 alone made a
                       // device last 8.3e4 hours.
                       Bad{"wake", "extra_energy_j", "-0.756",
                           "is not energy_j 0.03 less the warm burst's energy_j 0.021"}}) {
    const size_t line = write(b.measure, b.column, b.value);
    INFO(b.column << " = " << b.value);
    CHECK_THROWS_AS(load_deploy_csv(dir), edp::UsageError);
    CHECK_THROWS_WITH(load_deploy_csv(dir),
                      Catch::Contains(file + " line " + std::to_string(line) + ": " + b.column +
                                      " = '" + b.value + "' " + b.why));
  }
  // What the study does write: empty (not measured), 0, a wake's extra
  // energy below zero (within the noise of the warm burst), a difference or
  // a CI at rounding size.
  for (const Bad& ok :
       {Bad{"idle", "power_w", "", ""}, Bad{"idle", "power_w", "0", ""},
        Bad{"wake", "extra_energy_j", "-0.002", "", "energy_j", "0.019"},
        Bad{"idle", "power_w", "1e-15", ""},
        // a difference or a CI at rounding size
        Bad{"wake", "extra_energy_j", "-3e-17", "", "energy_j", "0.021"},
        Bad{"burst", "energy_j_ci95", "4e-18", ""},
        // a first burst's energy is the window's less the modelled idle:
        // a study of a tiny burst wrote -0.0971548194
        Bad{"wake", "energy_j", "-0.0971548194", "", "extra_energy_j", "-0.1181548194"}}) {
    write(ok.measure, ok.column, ok.value, ok.column2, ok.value2);
    INFO(ok.column << " = " << ok.value);
    CHECK_NOTHROW(load_deploy_csv(dir));
  }
  // A measurement twice: the later row would price the item in silence.
  {
    CsvTable t = good;
    t.rows.push_back(t.rows[1]);
    std::string text = csv_line(t.header);
    for (const auto& row : t.rows) text += csv_line(row);
    std::ofstream(file) << text;
    CHECK_THROWS_WITH(load_deploy_csv(dir),
                      Catch::Contains(file + " lines 3 and " + std::to_string(t.rows.size() + 1) +
                                      ": the same measurement twice"));
  }
  ::unlink(file.c_str());
  ::rmdir(dir.c_str());
}
