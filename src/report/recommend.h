// CPU or GPU per (workload, size) from results.csv (DESIGN §5): the best
// objective among the devices (and, after a sweep over operating points, the
// (device, point) pairs) that meet a deadline, the ratio between the two,
// whether their 95% CIs separate, and how many runs fit in a battery charge.
// Pure functions: a CsvTable in, Recommendations and text out.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "report/crossover.h"
#include "report/csv.h"
#include "report/results_csv.h"
#include "report/study_view.h"

namespace edp::report {

enum class Objective { edp, energy, time };

// "edp" | "energy" | "time"; nullopt for anything else.
std::optional<Objective> parse_objective(const std::string& name);
std::string objective_name(Objective o);   // "edp"
std::string objective_label(Objective o);  // "EDP", "energy", "time" (for sentences)
// The results.csv column holding the objective's mean: edp_js_mean, ...
std::string objective_column(Objective o);

struct RecommendOptions {
  Objective objective = Objective::edp;
  // What names a configuration of each study (its identity columns beyond
  // workload and size: the batch study's N); a study without a view has
  // none. `edpbench` passes the registry's (bench::study_views()).
  StudyViews studies;
  std::optional<double> deadline_s;  // a device qualifies when time_s_mean <= deadline_s
  std::optional<double> battery_wh;  // enables runs_per_charge
};

// One device's standing for a (workload, size): the best row of its kind.
struct DeviceStanding {
  std::string label;               // the CSV device: "cpu", "cpu#2", "gpu"
  std::string point;               // its operating_point; "" when the sweep had none
  std::optional<double> value;     // objective mean; nullopt when not measured
  std::optional<double> ci95;      // half-width of its 95% CI; nullopt when unknown
  std::optional<double> time_s;    // time_s_mean
  std::optional<double> energy_j;  // energy_j_mean
  bool meets_deadline = true;
};

struct Recommendation {
  std::string workload, size;
  // The identity beyond workload and size, from the rows' study view
  // ({"n", "16"} for the batch study), and its values joined: the `batch`
  // column of the CSV ("16"); empty for the other studies.
  std::vector<std::pair<std::string, std::string>> extra_identity;
  std::string batch;
  Objective objective = Objective::edp;
  // "cpu" or "gpu"; "none" when no device meets the deadline; "" when it cannot
  // be decided (no successful run, objective not measured).
  std::string choice;
  // The chosen device's operating point; "" without points or without a choice.
  std::string operating_point;
  std::optional<DeviceStanding> cpu, gpu;  // each kind's best point
  std::optional<double> ratio;             // other / chosen (>= 1), both qualifying
  std::optional<bool> confident;           // CIs of both qualifying devices separate
  std::optional<long long> runs_per_charge;
  std::vector<std::string> notes;  // why something is empty, excluded, ...

  bool decided() const { return !choice.empty(); }
  std::optional<double> cpu_value() const { return cpu ? cpu->value : std::nullopt; }
  std::optional<double> gpu_value() const { return gpu ? gpu->value : std::nullopt; }
  std::string cpu_point() const { return cpu ? cpu->point : std::string(); }
  std::string gpu_point() const { return gpu ? gpu->point : std::string(); }
  bool has_points() const { return !cpu_point().empty() || !gpu_point().empty(); }
};

// "cpu#2" -> "cpu", "gpu" -> "gpu": the device kind a label belongs to.
std::string device_kind(const std::string& label);

// One Recommendation per (workload, size[, batch]) with at least one row, in
// the order of first appearance; rows whose study's view names more identity
// columns (the batch study's N) are grouped by those as well. Only status=ok rows of cpu- and
// gpu-kind devices count; when a kind has several labels (cpu, cpu#2) or operating points, its best
// qualifying row stands, so the choice is the best (device, point) pair.
std::vector<Recommendation> recommend(const CsvTable& results, const RecommendOptions& options);

// The CSV contract: header `workload,size,objective,choice,cpu_value,gpu_value,
// ratio,confident,runs_per_charge`, then `operating_point` (the choice's) when
// the results had points, `batch` when any recommendation has one, and after
// them, with points, `cpu_point,gpu_point` (each device's best point, where
// cpu_value and gpu_value were taken); CRLF line ends, empty fields where n/a.
extern const char* const kRecommendationCsvHeader;
std::string recommendations_csv(const std::vector<Recommendation>& recs);
// Plain-language lines, e.g. "tensors/large: GPU — 12.3x lower EDP than CPU
// (confident); 340 runs per 50 Wh charge".
std::string recommendation_sentence(const Recommendation& rec, const RecommendOptions& options);
std::string recommendations_text(const std::vector<Recommendation>& recs,
                                 const RecommendOptions& options);
bool any_decided(const std::vector<Recommendation>& recs);

// Per (workload, size) of `results`, the batch study's rows (its view's
// recommend_notes passes them): the crossover N by time and by
// energy per sample (time_per_sample_s_mean, energy_per_sample_j_mean, else
// the per-run means / (n x iterations)). A device qualifies at an N with an ok
// row that meets options.deadline_s; several labels of a kind: the best.
struct BatchCrossover {
  std::string workload, size;
  Crossover by_time;
  std::optional<Crossover> by_energy;  // nullopt: energy was not measured
};
std::vector<BatchCrossover> batch_crossovers(const CsvTable& results,
                                             const RecommendOptions& options);
// "Crossover (batch study, per sample):" and one line per workload and size;
// "" when there is none.
std::string crossovers_text(const std::vector<BatchCrossover>& crossovers);

// Half-width of the 95% CI of `column`'s mean in row r: `<stem>_ci95` when it
// holds a number, else Student t(runs-1) * `<stem>_std` / sqrt(runs);
// nullopt when runs < 2 or neither is present. stem: "time_s", "energy_j", "edp_js".
std::optional<double> row_ci95(const CsvTable& results, size_t r, const std::string& stem);

}  // namespace edp::report
