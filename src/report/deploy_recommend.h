// `edpbench recommend DEPLOY --rate R --battery-wh W [--latency-ms L]` and
// the report's battery chart (DESIGN §9.4, docs/deploy.md): per task of a
// deploy.csv, the hours on a charge of each device's best candidate at a
// request rate, the choice with its confidence, and the rates where the
// choice changes. Pure: a deploy.csv table in, recommendations and text out.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "report/csv.h"
#include "report/deploy_model.h"

namespace edp::report {

struct DeployOptions {
  Load load;  // the request rate and how requests arrive
  double battery_wh = 0;
  std::optional<double> latency_s;  // p99 objective; none: any latency
  // The rates scanned for crossovers.
  double scan_lo_hz = 1e-4, scan_hi_hz = 1e3;
};

// A candidate as chosen: its label, its prediction, and the hours on a
// charge with their CI.
struct Pick {
  std::string label;  // Candidate::label()
  Prediction prediction;
  double hours = NAN, hours_ci95 = NAN;
};

// One device's best candidate for a task at the load (none: no feasible
// candidate, with why).
struct DeviceHours {
  std::string device;
  std::optional<Pick> best;
  std::string why_none;
};

// An open-loop check of the model on one of the task's items (a deploy.csv
// row with measure = check): the measured average power, the prediction
// from the gaps the run realised and the expectation over the arrivals, each
// with the error of the measurement against it (NaN where not written).
struct ModelCheck {
  std::string item;  // "cpu, batch 4"
  double rate_hz = NAN, measured_w = NAN;
  double realised_w = NAN, realised_error = NAN;
  double expected_w = NAN, expected_error = NAN;
  double arrivals = NAN, arrivals_expected = NAN;
};

struct DeployRecommendation {
  std::string task;
  std::vector<ModelCheck> checks;    // the ok check rows, in the file's order
  std::vector<DeviceHours> devices;  // in the file's order, skipped devices too
  std::optional<Pick> choice, runner_up;
  bool confident = false;
  std::vector<RateCrossover> crossovers;
};

// One recommendation per task of `table` (deploy.csv), in the file's order.
std::vector<DeployRecommendation> deploy_recommend(const CsvTable& table,
                                                   const DeployOptions& options);
bool any_deploy_choice(const std::vector<DeployRecommendation>& recs);
// The printed table: per task, each device's hours, the choice and why it is
// (or is not) confident, the crossovers, and the model's checks if any.
std::string deploy_recommendations_text(const std::vector<DeployRecommendation>& recs,
                                        const DeployOptions& options);

// Hours on a charge against the request rate for one task: per device, its
// best candidate at each of `rates_hz` (NaN where none is feasible).
struct HoursCurve {
  std::string device;
  std::vector<double> rates_hz, hours;
};
std::vector<HoursCurve> hours_curves(const std::vector<Candidate>& candidates,
                                     const std::string& task, const std::vector<double>& rates_hz,
                                     Arrivals arrivals, double battery_wh,
                                     std::optional<double> latency_s);

}  // namespace edp::report
