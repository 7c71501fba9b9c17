// Issue 26: every row takes time, energy, power and what is derived from
// them from one statistic of the same runs. Under a constant-power trace the
// energy of any window is exactly P x its span, so whatever statistic a row
// uses, its energy must equal P x the time it reports beside it; a row that
// mixed the mean energy with the median time would miss by the spread of the
// runs. The runs are made deliberately noisy: the workload sleeps a
// different time in each run, with one outlier, so the mean and the median
// of the times differ by far more than the tolerance.
#include <catch2/catch.hpp>

#include "protocol_fixture.h"
#include "report/csv.h"
#include "report/ops_csv.h"
#include "report/results_csv.h"
#include "report/stages_csv.h"

namespace {

using namespace edp;
using namespace edp::testing;

// Milliseconds per step in each of the 5 runs (reset() comes before run 1,
// so index 1 is the first run): the mean is pulled up by the 80 ms outlier,
// the median is not, even when a loaded machine stretches every sleep.
const std::vector<double> kNoisy{0, 3, 4, 3, 80, 5};
const std::vector<double> kFlush{0, 1, 1, 10, 1, 2};

double cell(const std::vector<std::string>& row, const std::vector<std::string>& cols,
            const std::string& name) {
  for (size_t i = 0; i < cols.size(); ++i)
    if (cols[i] == name) return std::stod(row.at(i));
  FAIL("no column " << name);
  return NAN;
}

}  // namespace

TEST_CASE("one statistic: ops rows, warm and cold, give energy per op == P x time_s_median",
          "[bench][statistic]") {
  Fixture f;
  const std::vector<std::string>& cols = report::ops_columns();
  SECTION("warm") {
    const auto rec = bench::run_protocol(
        f.session, f.hooks,
        f.item("ops", {{"op", "copy"}, {"variant", "warm"}}, {sleep_part("copy", kNoisy)}));
    REQUIRE(rec.status == "ok");
    const auto row = report::ops_row(rec, NAN, NAN);
    const double t = cell(row, cols, "time_s_median"), e = cell(row, cols, "energy_per_op_j");
    // The noise is real: the mean time per step is well above the median.
    double sum = 0;
    for (const auto& r : rec.parts[0].run_records) sum += r.time_s / 2;
    REQUIRE(sum / 5 > 1.3 * t);
    CHECK(e == Approx(kPowerW * t).epsilon(1e-6));
    CHECK(cell(row, cols, "power_w_mean") == Approx(kPowerW).epsilon(1e-6));
    CHECK(cell(row, cols, "pj_per_flop") == Approx(kPowerW * t / 1e6 * 1e12).epsilon(1e-6));
    CHECK(cell(row, cols, "gflops") == Approx(1e6 / t / 1e9).epsilon(1e-6));
  }
  SECTION("cold: the op minus the flush, both by their medians") {
    const auto rec =
        bench::run_protocol(f.session, f.hooks,
                            f.item("ops", {{"op", "copy"}, {"variant", "cold"}},
                                   {sleep_part("copy", kNoisy), sleep_part("flush", kFlush)}));
    REQUIRE(rec.status == "ok");
    const auto row = report::ops_row(rec, NAN, NAN);
    const double t = cell(row, cols, "time_s_median"), e = cell(row, cols, "energy_per_op_j");
    // (The difference of two medians; under heavy load it may even be
    // negative, and energy must still follow it.)
    CHECK(e == Approx(kPowerW * t).epsilon(1e-6).margin(1e-12));
  }
}

TEST_CASE("one statistic: stages rows give energy_j == P x the measured time_s_mean",
          "[bench][statistic]") {
  Fixture f;
  const auto rec = bench::run_protocol(
      f.session, f.hooks,
      f.item("stages", {{"workload", "tensors"}, {"size", "tiny"}, {"device", "reference"}},
             {sleep_part("forward", {0, 2, 2, 6, 2, 2}),
              sleep_part("forward_backward", {0, 8, 9, 8, 20, 9}), sleep_part("step", kNoisy)}));
  REQUIRE(rec.status == "ok");
  const auto& cols = report::stages_columns();
  int checked = 0;
  for (const auto& row : report::stages_rows(rec)) {
    const std::string stage = row[3];
    if (stage != "forward" && stage != "backward" && stage != "update" && stage != "step") continue;
    INFO(stage);
    const double t = cell(row, cols, "time_s_mean"), e = cell(row, cols, "energy_j");
    CHECK(e == Approx(kPowerW * t).epsilon(1e-6).margin(1e-12));
    // power = energy / time where the measured time difference is positive
    // (a loaded machine can blur a difference to nothing; then it is empty).
    if (t > 0) CHECK(cell(row, cols, "power_w_mean") == Approx(kPowerW).epsilon(1e-6));
    ++checked;
  }
  CHECK(checked == 4);
}

TEST_CASE("one statistic: results rows pair each energy with the time of the same statistic",
          "[bench][statistic]") {
  Fixture f;
  bench::PlanItem it = f.item("mlp", {{"workload", "sleep"}}, {sleep_part("sleep", kNoisy)});
  it.values["n"] = 4;  // per-sample columns
  const auto rec = bench::run_protocol(f.session, f.hooks, it);
  REQUIRE(rec.status == "ok");
  const auto row = report::results_row(rec, rec.parts[0]);
  const auto& cols = report::results_columns();
  for (const char* stat : {"_mean", "_median"}) {
    INFO(stat);
    const double t = cell(row, cols, std::string("time_s") + stat);
    CHECK(cell(row, cols, std::string("energy_j") + stat) == Approx(kPowerW * t).epsilon(1e-6));
  }
  const double t = cell(row, cols, "time_s_mean");
  CHECK(cell(row, cols, "power_w_mean") == Approx(kPowerW).epsilon(1e-6));
  CHECK(cell(row, cols, "energy_per_sample_j_mean") ==
        Approx(kPowerW * cell(row, cols, "time_per_sample_s_mean")).epsilon(1e-6));
  CHECK(cell(row, cols, "time_per_sample_s_mean") == Approx(t / (4 * 2)).epsilon(1e-6));
}
