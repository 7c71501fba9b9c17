// The protocol's rules as objects (DESIGN §3), in the shape of nvbench's
// stopping criteria (STYLE.md): the window policy (how long a run's window
// must be, and how many blocks of steps fill it), the confidence rule (when a
// window is too short or too doubtful to trust), and the stopping criteria
// (fixed runs, a relative CI, and the caps). The protocol (bench/protocol/protocol.h)
// asks them during a run; `plan`'s dry run (forecast_part) asks the same
// objects with estimated step times. Nothing else derives a minimum window,
// a block count, a confidence flag or a stop.
#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "report/records.h"

namespace edp::bench {

// --- window policy ----------------------------------------------------------

// min_run_s: auto sizes a window to this many update intervals of the total
// rails (DESIGN §3).
inline constexpr int kAutoWindowIntervals = 20;

// A run's window: blocks of steps repeated until the window lasts the
// minimum (power.min_run_s, or with `auto` kAutoWindowIntervals update
// intervals; 0: one block). The first run finds the block count and every
// later run of the part repeats it (fix_blocks), as google/benchmark keeps
// its iteration count, so that every run does the same work.
class WindowPolicy {
 public:
  // update_interval_s: of the total rails, observed or stated (0: unknown,
  // and `auto` then asks for no minimum).
  WindowPolicy(double min_run_s, bool min_run_auto, double update_interval_s);

  double min_window_s() const { return min_s_; }
  bool automatic() const { return auto_; }
  // Whether a window of `blocks` blocks that lasted `elapsed_s` needs one
  // more: the rule the run's loop asks after every block.
  bool another_block(int blocks, double elapsed_s) const;
  // The blocks the loop ends with when each takes `block_s` (the dry run);
  // at least 1; the fixed count once there is one.
  int blocks_for(double block_s) const;
  // The count every run after the first repeats.
  void fix_blocks(int blocks) { fixed_ = blocks; }
  int fixed_blocks() const { return fixed_; }
  // What sized a window of `blocks` blocks (0: unknown): "steps" (one block,
  // the steps alone), "min_run_s" or "auto".
  std::string sized_by(int blocks) const;

 private:
  double min_s_ = 0;
  bool auto_ = false;
  int fixed_ = 0;
};

// --- confidence -------------------------------------------------------------

// A window spanning fewer update intervals of the total rails than this is
// low confidence (DESIGN §3): too few readings to say what the power was.
inline constexpr double kMinUpdatesPerWindow = 10;

// What the confidence rule reads about one window.
struct ConfidenceEvidence {
  double window_s = 0;
  double update_interval_s = 0;  // of the total rails; 0: unknown, not judged by length
  // Averaging total rails whose stated period the measured update interval
  // contradicts, one note each ("VDD_IN: stated averaging period ...").
  std::vector<std::string> period_mismatches;
  uint64_t anomalies = 0;
  std::string anomaly;  // the first anomaly's description
  // An averaging total rail whose lag could not be corrected (its period
  // was not known when the window opened).
  bool averaging_uncorrected = false;
  // What the note of a too-short window tells the user to do; the client's
  // own ("raise power.min_run_s or use auto" for a sweep).
  std::string short_window_advice = "raise power.min_run_s or use auto";
  bool frozen = false;  // a total rail kept its value
  // Averaging total rails whose lag correction reached its bound at an edge
  // (power::RailMeasurement::lag_edge_bounded): the power changed within one
  // averaging period of the window's edge, not at it.
  std::vector<std::string> lag_edges_bounded;
  // The total energy (NaN: not measured). Below zero, it cannot be right:
  // no board delivers power back through its input rail.
  double total_energy_j = std::numeric_limits<double>::quiet_NaN();
  std::string frozen_why;  // which, and for how long ("frozen sensor: VDD_IN kept ...")
};

struct Confidence {
  bool low = false;
  std::vector<std::string> reasons;  // for the run's note, in this order
};

// The one confidence rule: low when the window spans fewer than
// kMinUpdatesPerWindow update intervals, when a stated averaging period is
// contradicted, on anomalies, on an uncorrected averaging rail or one whose
// correction reached its bound, when a total rail froze, or when the total
// energy is below zero; with every reason.
Confidence judge_confidence(const ConfidenceEvidence& e);

// "shorter than 10 sensor updates, frozen, anomalies or an unknown update
// interval": the causes, for a part's note.
std::string low_confidence_causes();

// --- stopping criteria ------------------------------------------------------

// When a part's runs may stop, after its minimum number of runs (nvbench's
// stopping_criterion_base: public calls over do_* hooks). The protocol, not
// the criterion, enforces the minimum and the caps (StopCaps).
class StoppingCriterion {
 public:
  virtual ~StoppingCriterion() = default;
  virtual std::string name() const = 0;
  // A new part: forget the runs seen.
  void start() { do_start(); }
  void add(const report::RunRecord& run) { do_add(run); }
  bool done() const { return do_done(); }
  // Why it is done ("10 runs", "relative CI 0.0083 < 0.01 after 7 runs").
  std::string why() const { return do_why(); }
  // What it has seen so far, for a cap's note ("relative CI 0.021").
  std::string state() const { return do_state(); }

 protected:
  virtual void do_start() = 0;
  virtual void do_add(const report::RunRecord& run) = 0;
  virtual bool do_done() const = 0;
  virtual std::string do_why() const = 0;
  virtual std::string do_state() const = 0;
};

// Exactly `runs` runs (runs: 10, the default).
class FixedRuns final : public StoppingCriterion {
 public:
  explicit FixedRuns(int runs) : runs_(runs) {}
  std::string name() const override { return "fixed_runs"; }

 private:
  void do_start() override { n_ = 0; }
  void do_add(const report::RunRecord&) override { ++n_; }
  bool do_done() const override { return n_ >= runs_; }
  std::string do_why() const override;
  std::string do_state() const override { return do_why(); }
  int runs_, n_ = 0;
};

// Until the 95% CI of the run time is within `max_rel_ci` of its mean (at
// least 2 runs): ops' max_rel_ci.
class RelativeCi final : public StoppingCriterion {
 public:
  explicit RelativeCi(double max_rel_ci) : max_(max_rel_ci) {}
  std::string name() const override { return "relative_ci"; }

 private:
  void do_start() override { times_.clear(); }
  void do_add(const report::RunRecord& run) override { times_.push_back(run.time_s); }
  bool do_done() const override;
  std::string do_why() const override;
  std::string do_state() const override;
  double relative_ci() const;  // NaN under 2 runs or a zero mean
  double max_;
  std::vector<double> times_;
};

// The criterion of a part: FixedRuns(runs) when max_rel_ci is 0, else
// RelativeCi(max_rel_ci).
std::unique_ptr<StoppingCriterion> stopping_criterion(int runs, double max_rel_ci);

// What the protocol enforces around the criterion: the minimum runs, then a
// run cap and a time limit (0: none).
struct StopCaps {
  int min_runs = 1;
  int max_runs = 0;
  double time_limit_s = 0;
};

// Whether `n` runs that took `elapsed_s` may stop: never under the minimum,
// then when the criterion is done, or a cap is reached; why in *why.
bool runs_done(const StoppingCriterion& c, const StopCaps& caps, int n, double elapsed_s,
               std::string* why);

}  // namespace edp::bench
