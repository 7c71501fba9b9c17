// `edpbench compare A B [C...]`: sweeps side by side, as benchstat does for Go
// benchmarks. Configurations are paired by their identity columns, read by
// name (workload, size, study, the studies' own identity columns such as the
// batch study's n, device, threads, key, operating_point); a
// column that is constant within every sweep and differs between them (the
// threads of two one-device sweeps, their operating point) is the setting
// under comparison: it is left out of the pairing and printed. Per pair:
// time, energy, dynamic energy and EDP means with their 95% CI, the change in
// percent against the first sweep, and a Mann-Whitney U test on runs.csv's
// per-run values; a geometric mean per column; the configurations of one side
// only; and the context differences that make a comparison suspect.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "report/mann_whitney.h"
#include "report/report_data.h"
#include "report/study_view.h"

namespace edp::report {

enum class CompareMetric { time, energy, dynamic_energy, edp };
const std::vector<CompareMetric>& compare_metrics();  // in table order
std::string metric_name(CompareMetric m);             // "time", "energy", "dynamic_energy", "edp"
std::string metric_title(CompareMetric m);            // "time (s)", "EDP (J s)", ...
std::string metric_stem(CompareMetric m);             // results.csv/runs.csv stem: "time_s", ...
std::optional<CompareMetric> parse_compare_metric(const std::string& name);

// One input: an `edpbench run` directory, or a results.csv (its directory's
// runs.csv and context.json are read next to it), as read back. (Not
// bench::Sweep, the sweep in progress that writes such a directory.)
struct LoadedSweep {
  std::string label;  // the directory's name, made unique among the inputs
  ReportData data;
  // run_rows[r]: the runs.csv rows of results.csv row r (empty without runs.csv)
  std::vector<std::vector<size_t>> run_rows;
};

// Throws edp::UsageError (exit 2) for a path without results.csv, a
// malformed results.csv, a results.csv with no configuration, two rows with
// the same identity, or a runs.csv whose rows do not match results.csv (a run
// of a configuration results.csv does not have, or another number of runs
// than its `runs` column says).
LoadedSweep load_sweep(const std::string& path);
// The same checks on data already read (load_sweep = load_report_data + this).
LoadedSweep make_sweep(ReportData data);

struct MetricCell {
  std::string status;  // results.csv status ("ok", "failed", "skipped")
  std::optional<double> mean, ci95;
  std::vector<double> runs;  // finite per-run values from runs.csv
};

struct MetricDelta {
  std::optional<double> change_pct;  // (other - base) / base x 100
  std::optional<MannWhitney> test;   // nullopt: fewer than one run a side
  bool significant = false;          // test->p < alpha
  bool can_be_significant = false;   // the runs' counts allow a p below alpha
};

// Metric m of results.csv row r of a sweep, with its per-run values; and
// `other` against `base` as compare judges it (change, Mann-Whitney U test on
// the runs, significant when p < alpha). The cross-board recommendation uses
// these too, so that it names a winner only where compare finds one.
MetricCell metric_cell(const LoadedSweep& s, size_t row, CompareMetric m);
MetricDelta metric_delta(const MetricCell& base, const MetricCell& other, double alpha);

struct ComparedConfig {
  std::string label;                       // "tensors/small/cpu" + other identity values
  std::vector<std::string> identity;       // values of Comparison::identity_columns
  std::vector<std::optional<size_t>> row;  // its results.csv row per sweep
  // cells[m][s]: metric m (compare_metrics() order) in sweep s
  std::vector<std::vector<MetricCell>> cells;
  // deltas[m][s - 1]: sweep s against sweep 0
  std::vector<std::vector<MetricDelta>> deltas;
  bool in_all() const;
};

struct Comparison {
  std::vector<std::string> sweeps;            // labels
  std::vector<std::string> identity_columns;  // what pairs configurations
  std::vector<std::string> varied;            // "threads: A 1, B 2"
  std::vector<std::string> context_notes;     // suspect differences, printed first
  std::vector<std::string> test_notes;        // what the sample sizes allow
  std::vector<ComparedConfig> configs;        // in two or more sweeps
  std::vector<std::string> one_side;          // "tensors/large/gpu: only in B"
  // Configurations ok in the base and in no other sweep: label, and per
  // metric (compare_metrics() order) whether the base measured it.
  struct BaseOnly {
    std::string label;
    std::vector<bool> measured;
  };
  std::vector<BaseOnly> base_only;
  // geomean[m][s] over the configurations present, with a value, in every
  // sweep; geomean_change_pct[m][s - 1]
  std::vector<std::vector<std::optional<double>>> geomean;
  std::vector<std::vector<std::optional<double>>> geomean_change_pct;
  // geomean_configs[m]: how many configurations the geomean is over;
  // geomean_left_out[m]: those in every sweep left out of it, because a
  // sweep has no mean for them or one that is not > 0 (dynamic energy is <= 0
  // when the idle baseline was above the run's power), "label (why)".
  std::vector<size_t> geomean_configs;
  std::vector<std::vector<std::string>> geomean_left_out;
  double alpha = 0.05;
};

struct CompareOptions {
  double alpha = 0.05;
  // What names a configuration of each study beyond workload, size and
  // device (study_view.h: the batch study's N); `edpbench` passes the
  // registry's (bench::study_views()).
  StudyViews studies;
};

// Needs two sweeps or more; throws edp::UsageError when a sweep has no
// configuration in common with the first.
Comparison compare_sweeps(const std::vector<LoadedSweep>& sweeps, const CompareOptions& options);

// The context lines of `compare_sweeps`, on their own: board, L4T, nvpmodel,
// clocks, power source, total rails, edpbench version that differ, and the
// sweeps with low-confidence or throttled runs.
std::vector<std::string> context_differences(const std::vector<LoadedSweep>& sweeps);

struct Regression {
  std::string config, sweep;
  double change_pct = 0;  // NaN: no value in the later sweep (failed, skipped, absent)
  double p = 0;           // NaN: not tested
  std::string untested;   // why it could not be tested ("" when it was)
};
// Significant increases of `metric` above `threshold_pct` (time, energy, EDP:
// more is worse), and the increases above it that could not be tested (a
// sweep without runs.csv, a configuration without runs, runs too few for
// any p below alpha: 3 + 3 cannot go below 0.1): a gate does not pass what
// it could not check.
std::vector<Regression> find_regressions(const Comparison& c, CompareMetric metric,
                                         double threshold_pct);

std::string p_value_text(double p);  // as compare prints it: "0.095", "1.1e-05"
std::string comparison_text(const Comparison& c);
// One row per (configuration, metric, sweep after the first):
// config,<identity columns>,metric,base_sweep,sweep,base_mean,base_ci95,mean,
// ci95,change_pct,p,n_base,n,significant; then the geomean rows.
std::string comparison_csv(const Comparison& c);
std::string comparison_json(const Comparison& c);

}  // namespace edp::report
