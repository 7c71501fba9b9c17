// compare_sweeps on sweeps written here: results.csv, runs.csv and
// context.json as `edpbench run` writes them (columns read by name: the
// second sweep's columns come in another order), with per-run values chosen so
// that the U test's answer is known (5 + 5 separated runs: p = 2/252).
#include <catch2/catch.hpp>

#include <stdlib.h>
#include <sys/stat.h>

#include <cmath>
#include <fstream>
#include <map>
#include <sstream>

#include "common/errors.h"
#include "report/compare.h"

using namespace edp::report;

namespace {

struct Config {
  std::string workload, size, device, threads;
  std::vector<double> time_s;  // per run; energy = 7.5 W x time
  std::string status = "ok";
  int low_confidence_runs = 0;
  double dynamic_w = 2.5;  // dynamic energy per run = dynamic_w x time (<= 0: baseline above)
};

std::string mkdir_temp() {
  std::string t = "/tmp/edpbench-compare-XXXXXX";
  REQUIRE(::mkdtemp(t.data()) != nullptr);
  return t;
}

std::string num(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.9g", v);
  return b;
}

// Writes a sweep; `reorder` permutes the results.csv columns.
std::string write_sweep(const std::string& parent, const std::string& name,
                        const std::vector<Config>& configs, const std::string& board,
                        bool reorder = false, bool write_runs = true) {
  const std::string dir = parent + "/" + name;
  REQUIRE(::mkdir(dir.c_str(), 0755) == 0);
  std::vector<std::string> cols{"workload",
                                "size",
                                "n",
                                "device",
                                "threads",
                                "runs",
                                "status",
                                "time_s_mean",
                                "time_s_ci95",
                                "energy_j_mean",
                                "energy_j_ci95",
                                "dynamic_energy_j_mean",
                                "edp_js_mean",
                                "edp_js_ci95",
                                "low_confidence_runs",
                                "d_in",
                                "h",
                                "d_out",
                                "iterations",
                                "time_s_std",
                                "energy_j_std",
                                "power_w_mean",
                                "edp_js_std",
                                "power_source",
                                "energy_rails",
                                "samples_per_run",
                                "final_loss",
                                "diverged",
                                "note",
                                "study",
                                "key"};
  if (reorder) std::reverse(cols.begin(), cols.end());
  std::string res,
      runs = "workload,size,device,run,time_s,energy_j,dynamic_energy_j,edp_js,study,key\n";
  for (size_t i = 0; i < cols.size(); ++i) res += (i ? "," : "") + cols[i];
  res += "\n";
  for (const auto& c : configs) {
    double t = 0, e = 0, edp = 0;
    for (double v : c.time_s) {
      t += v / c.time_s.size();
      e += 7.5 * v / c.time_s.size();
      edp += 7.5 * v * v / c.time_s.size();
    }
    const std::string key =
        "mlp:workload=" + c.workload + ",size=" + c.size + ",device=" + c.device;
    std::map<std::string, std::string> f{
        {"workload", c.workload},
        {"size", c.size},
        {"n", "64"},
        {"device", c.device},
        {"threads", c.threads},
        {"runs", std::to_string(c.time_s.size())},
        {"status", c.status},
        {"time_s_mean", num(t)},
        {"time_s_ci95", num(t * 0.02)},
        {"energy_j_mean", num(e)},
        {"energy_j_ci95", num(e * 0.02)},
        {"dynamic_energy_j_mean", num(e * c.dynamic_w / 7.5)},
        {"edp_js_mean", num(edp)},
        {"edp_js_ci95", num(edp * 0.04)},
        {"low_confidence_runs", std::to_string(c.low_confidence_runs)},
        {"study", "mlp"},
        {"key", "\"" + key + "\""},
        {"power_source", "trace"},
        {"energy_rails", "VDD_IN"}};
    for (size_t i = 0; i < cols.size(); ++i) res += (i ? "," : "") + f[cols[i]];
    res += "\n";
    for (size_t r = 0; r < c.time_s.size(); ++r) {
      const double v = c.time_s[r];
      runs += c.workload + "," + c.size + "," + c.device + "," + std::to_string(r + 1) + "," +
              num(v) + "," + num(7.5 * v) + "," + num(c.dynamic_w * v) + "," + num(7.5 * v * v) +
              ",mlp,\"" + key + "\"\n";
    }
  }
  std::ofstream(dir + "/results.csv") << res;
  if (write_runs) std::ofstream(dir + "/runs.csv") << runs;
  std::ofstream(dir + "/context.json")
      << "{\"edpbench_version\": \"0.1.0\", \"board\": {\"model\": \"" << board
      << "\", \"l4t_release\": \"R32.7.4\", \"nvpmodel\": {\"id\": 0, \"mode\": \"MAXN\"}},"
         " \"power\": {\"source\": \"trace\", \"total_rails\": [\"VDD_IN\"]}}";
  return dir;
}

const std::vector<double> kFast{1.00, 1.01, 1.02, 1.03, 1.04};
const std::vector<double> kSlow{1.20, 1.21, 1.22, 1.23, 1.24};
const std::vector<double> kMixA{1.00, 1.02, 1.04, 1.06, 1.08};
const std::vector<double> kMixB{1.01, 1.03, 1.05, 1.07, 1.09};

}  // namespace

TEST_CASE("compare pairs by name, leaves the varied setting out, tests per run") {
  const std::string tmp = mkdir_temp();
  const auto a = write_sweep(tmp, "t1",
                             {{"tensors", "small", "cpu", "1", kFast},
                              {"autograd", "small", "cpu", "1", kMixA},
                              {"tensors", "large", "cpu", "1", kFast}},
                             "NVIDIA Jetson TX2");
  const auto b = write_sweep(tmp, "t2",
                             {{"tensors", "small", "cpu", "2", kSlow},
                              {"autograd", "small", "cpu", "2", kMixB},
                              {"custom_relu", "small", "cpu", "2", kFast}},
                             "NVIDIA Jetson TX2", /*reorder=*/true);
  const Comparison c = compare_sweeps({load_sweep(a), load_sweep(b + "/results.csv")}, {});
  REQUIRE(c.sweeps == std::vector<std::string>{"t1", "t2"});
  CHECK(c.varied == std::vector<std::string>{"threads: t1 1; t2 2"});
  REQUIRE(c.configs.size() == 2);
  const ComparedConfig& ts = c.configs[0];
  CHECK(ts.label == "tensors/small/cpu");
  // time: mean 1.02 -> 1.22, +19.6%; every slow run above every fast one.
  const MetricDelta& dt = ts.deltas[0][0];
  CHECK(*dt.change_pct == Approx((1.22 - 1.02) / 1.02 * 100));
  REQUIRE(dt.test);
  CHECK(dt.test->exact);
  CHECK(dt.test->p == Approx(2.0 / 252));
  CHECK(dt.significant);
  // Interleaved runs: not significant.
  const MetricDelta& dm = c.configs[1].deltas[0][0];
  CHECK_FALSE(dm.significant);
  CHECK(dm.test->p > 0.5);
  // One side only: listed, not dropped.
  CHECK(c.one_side == std::vector<std::string>{"tensors/large/cpu: only in t1",
                                               "custom_relu/small/cpu: only in t2"});
  // Geomean of time over the pairs: sqrt(1.02 * 1.04) against sqrt(1.22 * 1.05).
  CHECK(*c.geomean[0][0] == Approx(std::sqrt(1.02 * 1.04)));
  CHECK(*c.geomean[0][1] == Approx(std::sqrt(1.22 * 1.05)));
  CHECK(*c.geomean_change_pct[0][0] ==
        Approx((std::sqrt(1.22 * 1.05) / std::sqrt(1.02 * 1.04) - 1) * 100));
  CHECK(c.context_notes.empty());

  // Regressions: energy +19.6% is significant; a 25% threshold lets it pass.
  // tensors/large/cpu, measured in t1 only, is not passed at any threshold.
  const auto regs = find_regressions(c, CompareMetric::energy, 10);
  REQUIRE(regs.size() == 2);
  CHECK(regs[0].config == "tensors/large/cpu");
  CHECK(regs[1].config == "tensors/small/cpu");
  const auto at25 = find_regressions(c, CompareMetric::energy, 25);
  REQUIRE(at25.size() == 1);
  CHECK(at25[0].config == "tensors/large/cpu");
  // The other way round it is an improvement, not a regression; what is
  // left is custom_relu/small/cpu, measured in t2 only.
  const Comparison back = compare_sweeps({load_sweep(b), load_sweep(a)}, {});
  const auto back_regs = find_regressions(back, CompareMetric::time, 1);
  REQUIRE(back_regs.size() == 1);
  CHECK(back_regs[0].config == "custom_relu/small/cpu");

  const std::string text = comparison_text(c);
  CHECK(text.find("+19.6% (p=0.008 n=5+5)") != std::string::npos);
  CHECK(text.find("~ (p=") != std::string::npos);
  CHECK(text.find("geomean") != std::string::npos);
  const std::string csv = comparison_csv(c);
  CHECK(csv.rfind("config,workload,size,study,metric,base_sweep,sweep,", 0) == 0);
  CHECK(csv.find("tensors/small/cpu,tensors,small,mlp,time,t1,t2,1.02,") != std::string::npos);
  const std::string json = comparison_json(c);
  CHECK(json.find("\"significant\": true") != std::string::npos);
}

TEST_CASE("compare's regression gate does not pass a configuration the later sweep lost") {
  // Review: a configuration ok in the base and failed in the new sweep, or
  // gone from it, was skipped by --fail-on-regression, which then passed.
  const std::string tmp = mkdir_temp();
  const auto a = write_sweep(tmp, "base",
                             {{"tensors", "small", "cpu", "1", kFast},
                              {"autograd", "small", "cpu", "1", kFast},
                              {"tensors", "large", "cpu", "1", kFast}},
                             "NVIDIA Jetson TX2");
  Config failed{"tensors", "small", "cpu", "1", {}};
  failed.status = "failed";
  const auto b = write_sweep(tmp, "new", {failed, {"autograd", "small", "cpu", "1", kFast}},
                             "NVIDIA Jetson TX2");
  const Comparison c = compare_sweeps({load_sweep(a), load_sweep(b)}, {});
  const auto regs = find_regressions(c, CompareMetric::energy, 10);
  REQUIRE(regs.size() == 2);
  CHECK(regs[0].config == "tensors/large/cpu");
  CHECK(regs[0].untested == "measured in the base, not in this sweep");
  CHECK(std::isnan(regs[0].change_pct));
  CHECK(regs[1].config == "tensors/small/cpu");
  CHECK(regs[1].untested == "measured in the base, failed in this sweep");
  CHECK(regs[1].sweep == "new");
  // The other way round nothing was lost: what failed in the base is not
  // the new sweep's regression, and a configuration new in it is not one.
  const Comparison back = compare_sweeps({load_sweep(b), load_sweep(a)}, {});
  CHECK(find_regressions(back, CompareMetric::energy, 10).empty());

  // Review of the above: a later row that is ok but has no energy (no
  // sensor, no total rails) was not checked either; and a configuration
  // gone from the later sweep is only the gate's concern for a metric the
  // base measured.
  auto blank_energy = [](const std::string& dir) {
    for (const char* file : {"/results.csv", "/runs.csv"}) {
      CsvTable t = edp::report::read_csv_file(dir + file);
      for (size_t c = 0; c < t.header.size(); ++c)
        if (t.header[c].find("energy") != std::string::npos ||
            t.header[c].find("edp") != std::string::npos || t.header[c].find("power") == 0)
          for (auto& row : t.rows) row[c].clear();
      std::string text = csv_line(t.header);
      for (const auto& row : t.rows) text += csv_line(row);
      std::ofstream(dir + file) << text;
    }
  };
  const auto measured =
      write_sweep(tmp, "measured", {{"tensors", "small", "cpu", "1", kFast}}, "NVIDIA Jetson TX2");
  const auto unmeasured = write_sweep(tmp, "unmeasured", {{"tensors", "small", "cpu", "1", kFast}},
                                      "NVIDIA Jetson TX2");
  blank_energy(unmeasured);
  const Comparison lost = compare_sweeps({load_sweep(measured), load_sweep(unmeasured)}, {});
  const auto lost_regs = find_regressions(lost, CompareMetric::energy, 10);
  REQUIRE(lost_regs.size() == 1);
  CHECK(lost_regs[0].untested == "measured in the base, not measured in this sweep");
  CHECK(find_regressions(lost, CompareMetric::time, 10).empty());  // time was measured
  const auto no_energy = write_sweep(
      tmp, "no_energy",
      {{"tensors", "small", "cpu", "1", kFast}, {"tensors", "large", "cpu", "1", kFast}},
      "NVIDIA Jetson TX2");
  blank_energy(no_energy);
  const Comparison gone = compare_sweeps({load_sweep(no_energy), load_sweep(unmeasured)}, {});
  CHECK(find_regressions(gone, CompareMetric::energy, 10).empty());  // never measured
  const auto gone_time = find_regressions(gone, CompareMetric::time, 10);
  REQUIRE(gone_time.size() == 1);
  CHECK(gone_time[0].config == "tensors/large/cpu");
}

TEST_CASE("compare names what makes a comparison suspect, and what few runs cannot show") {
  const std::string tmp = mkdir_temp();
  const auto a = write_sweep(tmp, "tx2", {{"tensors", "small", "gpu", "0", {1, 1.1, 1.2}}},
                             "NVIDIA Jetson TX2");
  Config low{"tensors", "small", "gpu", "0", {0.5, 0.6, 0.7}};
  low.low_confidence_runs = 3;
  const auto b = write_sweep(tmp, "orin", {low}, "NVIDIA Jetson Orin NX");
  const Comparison c = compare_sweeps({load_sweep(a), load_sweep(b)}, {});
  REQUIRE(c.context_notes.size() == 2);
  CHECK(c.context_notes[0] == "board: tx2 NVIDIA Jetson TX2; orin NVIDIA Jetson Orin NX");
  CHECK(c.context_notes[1].find("orin: 1 of 1 configurations have low-confidence runs") == 0);
  // 3 + 3 runs: the smallest p is 0.1, so the change (-50%) is `~`.
  CHECK_FALSE(c.configs[0].deltas[0][0].significant);
  REQUIRE(c.test_notes.size() == 1);
  CHECK(c.test_notes[0].find("n=3+3: the smallest two-sided p the U test can give is 0.1") == 0);
  CHECK(c.test_notes[0].find("run at least 4 runs a side (4+4 gives 0.0286)") != std::string::npos);
}

TEST_CASE("compare refuses bad inputs with what to fix") {
  const std::string tmp = mkdir_temp();
  const auto a = write_sweep(tmp, "a", {{"tensors", "small", "cpu", "1", kFast}}, "x");
  const auto other = write_sweep(tmp, "b", {{"autograd", "large", "cpu", "1", kFast}}, "x");
  CHECK_THROWS_WITH(compare_sweeps({load_sweep(a), load_sweep(other)}, {}),
                    Catch::Contains("no configuration of b") && Catch::Contains("is in a"));
  CHECK_THROWS_AS(load_sweep(tmp + "/missing"), edp::UsageError);
  REQUIRE(::mkdir((tmp + "/empty").c_str(), 0755) == 0);
  CHECK_THROWS_WITH(load_sweep(tmp + "/empty"), Catch::Contains("no results.csv"));
  // runs.csv with a run of a configuration results.csv lacks.
  std::ofstream(a + "/runs.csv", std::ios::app)
      << "tensors,medium,cpu,1,1,7.5,2.5,7.5,mlp,\"mlp:workload=tensors,size=medium,device=cpu\"\n";
  CHECK_THROWS_WITH(load_sweep(a), Catch::Contains("runs.csv line 7") &&
                                       Catch::Contains("results.csv has no such configuration"));
  // runs.csv with fewer runs than results.csv's `runs` says.
  const auto c = write_sweep(tmp, "c", {{"tensors", "small", "cpu", "1", kFast}}, "x");
  std::string runs;
  {
    std::ifstream in(c + "/runs.csv");
    std::string line;
    for (int i = 0; std::getline(in, line) && i < 4; ++i) runs += line + "\n";
  }
  std::ofstream(c + "/runs.csv") << runs;
  CHECK_THROWS_WITH(load_sweep(c), Catch::Contains("has runs=5 but runs.csv has 3"));
  // The line named is the row's line in the file, blank lines included
  // (review: two blank lines after the header and compare said line 2 for a
  // row on line 4, where report and recommend said 4).
  {
    std::string results;
    std::ifstream in(c + "/results.csv");
    std::string line;
    for (int i = 0; std::getline(in, line); ++i) results += line + (i == 0 ? "\n\n\n" : "\n");
    in.close();
    std::ofstream(c + "/results.csv") << results;
    CHECK_THROWS_WITH(load_sweep(c), Catch::Contains("results.csv line 4: (") &&
                                         Catch::Contains("has runs=5 but runs.csv has 3"));
  }
  // results.csv's mean is not its runs' mean (edited, or from another
  // sweep): the change would come from one and the test from the other.
  {
    const auto stale = write_sweep(tmp, "stale", {{"tensors", "small", "cpu", "1", kFast}}, "x");
    CsvTable t = edp::report::read_csv_file(stale + "/results.csv");
    const int at = t.column("energy_j_mean");
    REQUIRE(at >= 0);
    t.rows[0][static_cast<size_t>(at)] =
        std::to_string(std::stod(t.rows[0][static_cast<size_t>(at)]) * 1.3);
    std::string text = csv_line(t.header);
    for (const auto& row : t.rows) text += csv_line(row);
    std::ofstream(stale + "/results.csv") << text;
    CHECK_THROWS_WITH(load_sweep(stale), Catch::Contains("results.csv line 2") &&
                                             Catch::Contains("energy_j_mean") &&
                                             Catch::Contains("runs in runs.csv average"));
  }
  // Dynamic energy of either sign, nearly cancelling: each run's 9 digits
  // move the mean by more than 1e-5 of it, which is no edit.
  {
    const auto cancel = write_sweep(tmp, "cancel", {{"tensors", "small", "cpu", "1", kFast}}, "x");
    CsvTable runs = edp::report::read_csv_file(cancel + "/runs.csv");
    CsvTable res = edp::report::read_csv_file(cancel + "/results.csv");
    const int d = runs.column("dynamic_energy_j");
    const int dm = res.column("dynamic_energy_j_mean");
    REQUIRE(d >= 0);
    REQUIRE(dm >= 0);
    // Written with 9 digits each; their exact mean is about 4e-9 J, which
    // the writing moves by some 1e-10 J: 3%, where the check allows 1e-5.
    const double exact[] = {0.1234567894, -0.1234567802, 0.1234567894, -0.1234567802, 1e-10};
    REQUIRE(runs.rows.size() == 5);
    double sum = 0;
    for (size_t i = 0; i < runs.rows.size(); ++i) {
      runs.rows[i][static_cast<size_t>(d)] = fmt_double(exact[i]);
      sum += exact[i];
    }
    res.rows[0][static_cast<size_t>(dm)] = fmt_double(sum / static_cast<double>(runs.rows.size()));
    for (const auto& [file, t] : {std::make_pair(std::string("/runs.csv"), &runs),
                                  std::make_pair(std::string("/results.csv"), &res)}) {
      std::string text = csv_line(t->header);
      for (const auto& row : t->rows) text += csv_line(row);
      std::ofstream(cancel + file) << text;
    }
    CHECK_NOTHROW(load_sweep(cancel));
  }
  // Two rows of one configuration: both lines named.
  const auto twice = write_sweep(tmp, "twice",
                                 {{"tensors", "small", "cpu", "1", kFast},
                                  {"tensors", "large", "cpu", "1", kFast},
                                  {"tensors", "small", "cpu", "1", kFast}},
                                 "x", false, /*write_runs=*/false);
  const auto once = write_sweep(
      tmp, "once",
      {{"tensors", "small", "cpu", "1", kFast}, {"tensors", "large", "cpu", "1", kFast}}, "x",
      false, /*write_runs=*/false);
  // (Refused as it is read, by its key: every reader of results.csv.)
  CHECK_THROWS_WITH(load_sweep(twice),
                    Catch::Contains("results.csv lines 2 and 4: two rows for "
                                    "mlp:workload=tensors,size=small,device=cpu"));
  // Without keys (an older file), compare's own pairing finds the two rows.
  {
    CsvTable t = edp::report::read_csv_file(twice + "/results.csv");
    for (auto& row : t.rows) row[static_cast<size_t>(t.column("key"))] = "";
    std::string text = csv_line(t.header);
    for (const auto& row : t.rows) text += csv_line(row);
    std::ofstream(twice + "/results.csv") << text;
  }
  CHECK_THROWS_WITH(compare_sweeps({load_sweep(once), load_sweep(twice)}, {}),
                    Catch::Contains("results.csv lines 2 and 4: two rows for tensors/small/cpu"));
  // Without runs.csv: compared, untested, and said so.
  const auto d = write_sweep(tmp, "d", {{"tensors", "small", "cpu", "2", kSlow}}, "x", false,
                             /*write_runs=*/false);
  const auto e = write_sweep(tmp, "e", {{"tensors", "small", "cpu", "1", kFast}}, "x");
  const Comparison cmp = compare_sweeps({load_sweep(e), load_sweep(d)}, {});
  CHECK_FALSE(cmp.configs[0].deltas[0][0].test);
  CHECK(comparison_text(cmp).find("(no runs to test)") != std::string::npos);
  // ... and a gate does not pass an increase it could not test: listed as
  // a regression without a p-value.
  const auto untested = find_regressions(cmp, CompareMetric::time, 10);
  REQUIRE(untested.size() == 1);
  CHECK(untested[0].config == "tensors/small/cpu");
  CHECK(std::isnan(untested[0].p));
  CHECK(find_regressions(cmp, CompareMetric::time, 1e6).empty());
  CHECK(untested[0].untested == "no runs on one side");
  // Three runs a side cannot reach p < 0.05 (the smallest p is 0.1): an
  // increase above the threshold is not passed either. Keeping fewer runs
  // passed the gate that having none failed.
  {
    const auto few_a =
        write_sweep(tmp, "few-a", {{"tensors", "small", "cpu", "1", {1.0, 1.01, 1.02}}}, "x");
    const auto few_b =
        write_sweep(tmp, "few-b", {{"tensors", "small", "cpu", "1", {3.0, 3.01, 3.02}}}, "x");
    const Comparison few = compare_sweeps({load_sweep(few_a), load_sweep(few_b)}, {});
    const auto regs3 = find_regressions(few, CompareMetric::energy, 10);
    REQUIRE(regs3.size() == 1);
    CHECK(std::isnan(regs3[0].p));
    CHECK(regs3[0].untested == "n=3+3 runs cannot reach a p below alpha");
    // With five a side the same increase is tested, and significant.
    const auto five_b = write_sweep(tmp, "five-b", {{"tensors", "small", "cpu", "1", kSlow}}, "x");
    const auto five_a = write_sweep(tmp, "five-a", {{"tensors", "small", "cpu", "1", kFast}}, "x");
    const auto regs5 = find_regressions(
        compare_sweeps({load_sweep(five_a), load_sweep(five_b)}, {}), CompareMetric::energy, 10);
    REQUIRE(regs5.size() == 1);
    CHECK(regs5[0].untested.empty());
    CHECK(regs5[0].p < 0.05);
  }
  // A run's value that is not a number ("nan", text) would drop the run
  // from the test without a word: refused at its line.
  {
    const auto bad = write_sweep(tmp, "nan-run", {{"tensors", "small", "cpu", "1", kFast}}, "x");
    CsvTable runs = edp::report::read_csv_file(bad + "/runs.csv");
    const int at = runs.column("energy_j");
    REQUIRE(at >= 0);
    runs.rows[2][static_cast<size_t>(at)] = "nan";
    std::string text = csv_line(runs.header);
    for (const auto& row : runs.rows) text += csv_line(row);
    std::ofstream(bad + "/runs.csv") << text;
    CHECK_THROWS_WITH(load_sweep(bad), Catch::Contains("runs.csv line 4: energy_j = 'nan'"));
  }
  // A sweep of the ops study alone ran fine: it has nothing compare reads,
  // and is told so ("did the sweep run?" before).
  {
    const auto ops = write_sweep(tmp, "ops-only", {{"tensors", "small", "cpu", "1", kFast}}, "x");
    const std::string text = [&] {
      std::ifstream in(ops + "/results.csv");
      std::stringstream ss;
      ss << in.rdbuf();
      return ss.str();
    }();
    std::ofstream(ops + "/results.csv") << text.substr(0, text.find('\n') + 1);
    std::ofstream(ops + "/ops.csv") << "op\n";
    CHECK_THROWS_WITH(load_sweep(ops), Catch::Contains("has no configuration to compare") &&
                                           Catch::Contains("keep their rows in ops.csv"));
  }
  // A runs.csv that is there but cannot be read turns no test off.
  {
    const auto cut = write_sweep(tmp, "cut-runs", {{"tensors", "small", "cpu", "1", kFast}}, "x");
    std::ofstream(cut + "/runs.csv", std::ios::app) << "\"";
    CHECK_THROWS_AS(load_sweep(cut), edp::UsageError);
    CHECK_THROWS_WITH(load_sweep(cut), Catch::Contains("unterminated quoted field") &&
                                           Catch::Contains("compare tests each change"));
  }
}

TEST_CASE("compare --json survives invalid UTF-8 in the CSV (fuzz_results_csv finding)") {
  const std::string tmp = mkdir_temp();
  const std::string bad = "tensors\x9a";  // a lone continuation byte
  const auto a = write_sweep(tmp, "a", {{bad, "small", "cpu", "1", kFast}}, "x");
  const auto b = write_sweep(tmp, "b", {{bad, "small", "cpu", "2", kSlow}}, "x");
  const Comparison c = compare_sweeps({load_sweep(a), load_sweep(b)}, {});
  std::string json;
  REQUIRE_NOTHROW(json = comparison_json(c));
  CHECK(json.find("tensors\xEF\xBF\xBD") != std::string::npos);  // U+FFFD
}

TEST_CASE("compare: a change from a negative mean keeps the sign of the change") {
  // Dynamic energy (energy - baseline power x time) is negative when the
  // baseline drew more than the run (a baseline taken warmer, or at another
  // operating point). -2 J -> -1 J is 1 J more: +50% of |-2 J|, a regression,
  // not the -50% that dividing by the signed base gives.
  const std::string tmp = mkdir_temp();
  auto sweep = [&](const std::string& name, double mean) {
    const std::string dir = tmp + "/" + name;
    REQUIRE(::mkdir(dir.c_str(), 0755) == 0);
    std::ofstream(dir + "/results.csv")
        << "workload,size,n,d_in,h,d_out,device,threads,iterations,runs,status,time_s_mean,"
           "time_s_std,time_s_ci95,energy_j_mean,energy_j_std,energy_j_ci95,power_w_mean,"
           "edp_js_mean,edp_js_std,power_source,energy_rails,samples_per_run,final_loss,"
           "diverged,note,dynamic_energy_j_mean\n"
        << "tensors,small,64,,,,cpu,1,,5,ok,,,,,,,,,,trace,VDD_IN,,,,," << num(mean) << "\n";
    std::ofstream runs(dir + "/runs.csv");
    runs << "workload,size,device,run,dynamic_energy_j\n";
    for (int r = 0; r < 5; ++r)
      runs << "tensors,small,cpu," << r + 1 << "," << num(mean + 0.05 * (r - 2)) << "\n";
    return dir;
  };
  const auto a = sweep("before", -2.0);
  const auto b = sweep("after", -1.0);
  const Comparison c = compare_sweeps({load_sweep(a), load_sweep(b)}, {});
  REQUIRE(c.configs.size() == 1);
  const MetricDelta& d = c.configs[0].deltas[2][0];  // dynamic_energy
  REQUIRE(d.change_pct);
  CHECK(*d.change_pct == Approx(50));
  CHECK(d.significant);
  const auto regs = find_regressions(c, CompareMetric::dynamic_energy, 10);
  REQUIRE(regs.size() == 1);
  CHECK(regs[0].change_pct == Approx(50));
  // And the other way round it is an improvement (-50%), not a regression.
  const Comparison back = compare_sweeps({load_sweep(b), load_sweep(a)}, {});
  CHECK(*back.configs[0].deltas[2][0].change_pct == Approx(-100));
  CHECK(find_regressions(back, CompareMetric::dynamic_energy, 10).empty());
}

TEST_CASE("compare: a configuration without a positive mean is named as left out of the geomean") {
  const std::string tmp = mkdir_temp();
  Config neg{"autograd", "small", "cpu", "1", kFast};
  neg.dynamic_w = -0.5;  // the idle baseline read above the run's power
  const auto a = write_sweep(tmp, "a", {{"tensors", "small", "cpu", "1", kFast}, neg}, "X");
  neg.dynamic_w = 2.5;
  const auto b = write_sweep(tmp, "b", {{"tensors", "small", "cpu", "1", kSlow}, neg}, "X");
  const Comparison c = compare_sweeps({load_sweep(a), load_sweep(b)}, {});
  const auto& m = compare_metrics();
  const size_t dyn = std::find(m.begin(), m.end(), CompareMetric::dynamic_energy) - m.begin();
  const size_t time = std::find(m.begin(), m.end(), CompareMetric::time) - m.begin();
  REQUIRE(dyn < m.size());
  CHECK(c.geomean_configs[time] == 2);
  CHECK(c.geomean_left_out[time].empty());
  CHECK(c.geomean_configs[dyn] == 1);
  REQUIRE(c.geomean_left_out[dyn].size() == 1);
  CHECK_THAT(c.geomean_left_out[dyn][0],
             Catch::StartsWith("autograd/small/cpu (mean -") && Catch::EndsWith(" in a)"));
  // The geomean of dynamic energy is over tensors alone: 2.5 W x its mean time.
  CHECK(*c.geomean[dyn][0] == Approx(2.5 * 1.02));
  const std::string text = comparison_text(c);
  CHECK_THAT(text, Catch::Contains("geomean over 1 of 2 configurations; left out: "
                                   "autograd/small/cpu (mean -"));
  CHECK_THAT(comparison_json(c), Catch::Contains("\"geomean_left_out\""));
}
