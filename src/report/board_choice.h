// The recommendation across boards: for each (workload, size), the best
// (board, device, operating point) over several sweeps, among the choices
// that meet a deadline ("for autograd/medium under a 2 s deadline, the lowest
// energy is Jetson Orin NX GPU at 15W"). Pure functions over loaded sweeps.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "report/compare.h"
#include "report/recommend.h"

namespace edp::report {

// A sweep's name for people: the board model without "NVIDIA " and
// " Developer Kit" ("Jetson TX2"), with the nvpmodel mode when two sweeps are
// of one board, else the directory's name. One label per sweep, distinct.
std::vector<std::string> board_labels(const std::vector<LoadedSweep>& sweeps);

struct BoardOption {
  size_t sweep = 0;
  size_t row = 0;      // its results.csv row in the sweep
  std::string board;   // board_labels()[sweep]
  std::string device;  // "gpu", "cpu#2"
  std::string point;   // the row's operating_point, else the sweep's nvpmodel mode; may be ""
  double value = 0;    // the objective's mean
  std::optional<double> time_s;
  bool meets_deadline = true;
};

struct BoardChoice {
  std::string workload, size;
  // The rows' identity beyond workload and size (their study's view: the
  // batch study's N), e.g. {"n", "16"}.
  std::vector<std::pair<std::string, std::string>> extra_identity;
  std::optional<BoardOption> best;       // nullopt: nothing measured, or none meets the deadline
  std::optional<BoardOption> runner_up;  // the best on another board
  std::optional<BoardOption> fastest;    // when none meets the deadline
  // The runner-up against the best, judged as `compare` judges it (its
  // Mann-Whitney U test on the runs): the best is a winner only when this
  // is significant; otherwise the boards tie.
  std::optional<MetricDelta> versus_runner_up;
  size_t boards = 0;  // sweeps with an ok row of this (workload, size)
};

// `compare`'s metric for a recommendation's objective.
CompareMetric compare_metric_of(Objective o);

// Rows of every study with status ok and device kinds cpu and gpu, grouped
// by (workload, size) and the identity options.studies gives their study
// beyond them, in order of first appearance.
std::vector<BoardChoice> recommend_across_boards(const std::vector<LoadedSweep>& sweeps,
                                                 const RecommendOptions& options);
// "the lowest energy is A (1.2 J); next: B, 2.3x more (p = 0.0001)" when the
// difference is significant, else "the boards tie on energy: A (1.2 J) and
// B (1.3 J) differ by no more than their runs vary (p = 0.095, n = 3+3)".
std::string board_choice_sentence(const BoardChoice& c, const RecommendOptions& options);

}  // namespace edp::report
