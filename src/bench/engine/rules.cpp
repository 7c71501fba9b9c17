// The protocol's rules (see rules.h).
#include "bench/engine/rules.h"

#include <climits>
#include <cmath>

#include "common/text.h"
#include "report/stats.h"

namespace edp::bench {

// --- window policy ----------------------------------------------------------

WindowPolicy::WindowPolicy(double min_run_s, bool min_run_auto, double update_interval_s)
    : auto_(min_run_auto) {
  min_s_ = min_run_auto ? kAutoWindowIntervals * std::max(0.0, update_interval_s) : min_run_s;
}

bool WindowPolicy::another_block(int blocks, double elapsed_s) const {
  if (fixed_ > 0) return blocks < fixed_;
  return elapsed_s < min_s_;
}

int WindowPolicy::blocks_for(double block_s) const {
  if (fixed_ > 0) return fixed_;
  if (!(block_s > 0) || !(min_s_ > 0)) return 1;
  // The loop's own condition, asked around the arithmetic answer so that
  // rounding cannot make the two differ by a block.
  const double guess = std::ceil(min_s_ / block_s);
  int b = guess >= INT_MAX ? INT_MAX : std::max(1, static_cast<int>(guess));
  while (b > 1 && !another_block(b - 1, (b - 1) * block_s)) --b;
  while (b < INT_MAX && another_block(b, b * block_s)) ++b;
  return b;
}

std::string WindowPolicy::sized_by(int blocks) const {
  const std::string by_minimum = auto_ ? "auto" : "min_run_s";
  if (blocks > 1) return by_minimum;
  if (blocks == 1) return "steps";
  return auto_ || min_s_ > 0 ? by_minimum : "steps";  // unknown block length
}

// --- confidence -------------------------------------------------------------

Confidence judge_confidence(const ConfidenceEvidence& e) {
  Confidence c;
  for (const auto& m : e.period_mismatches) c.reasons.push_back(m);
  if (e.anomalies > 0)
    c.reasons.push_back(std::to_string(e.anomalies) + " sensor anomal" +
                        (e.anomalies == 1 ? "y" : "ies") +
                        (e.anomaly.empty() ? "" : " (" + e.anomaly + ")"));
  if (e.averaging_uncorrected)
    c.reasons.push_back(
        "the sensor's averaging period was not known when the window opened: no lag "
        "correction");
  const double updates = e.update_interval_s > 0 ? e.window_s / e.update_interval_s : NAN;
  const bool short_window = e.update_interval_s > 0 && updates < kMinUpdatesPerWindow;
  if (short_window)
    c.reasons.push_back("window " + fmt("%.3g s", e.window_s) + " spans " + fmt("%.3g", updates) +
                        " sensor updates of " + fmt("%.3g s", e.update_interval_s) +
                        " (fewer than " + fmt("%g", kMinUpdatesPerWindow) + ")" +
                        (e.short_window_advice.empty() ? "" : "; " + e.short_window_advice));
  if (e.frozen)
    c.reasons.push_back(e.frozen_why.empty() ? "frozen sensor: a total rail kept its value"
                                             : e.frozen_why);
  if (!e.lag_edges_bounded.empty())
    c.reasons.push_back(
        "the power changed within one averaging period of the window's edge, not at it (" +
        join(e.lag_edges_bounded, ", ") +
        "): the lag correction was bounded there, up to one period's energy uncertain");
  const bool negative = e.total_energy_j < 0;
  if (negative)
    c.reasons.push_back("the total energy " + fmt("%.4g J", e.total_energy_j) +
                        " is below zero: a total rail read below zero (a sensor offset, or a "
                        "rail that is not an input)");
  c.low = short_window || !e.period_mismatches.empty() || e.anomalies > 0 ||
          e.averaging_uncorrected || e.frozen || !e.lag_edges_bounded.empty() || negative;
  return c;
}

std::string low_confidence_causes() {
  return "shorter than " + fmt("%g", kMinUpdatesPerWindow) +
         " sensor updates, frozen, anomalies, no lag correction (the averaging period "
         "unknown when the window opened) or one bounded at an edge, an update interval that "
         "contradicts the stated averaging period, or a total energy below zero";
}

// --- stopping criteria ------------------------------------------------------

std::string FixedRuns::do_why() const { return std::to_string(n_) + " runs"; }

double RelativeCi::relative_ci() const {
  const report::Summary s = report::summarize(times_);
  return s.mean > 0 ? s.ci95 / s.mean : NAN;
}

bool RelativeCi::do_done() const { return times_.size() >= 2 && relative_ci() < max_; }

std::string RelativeCi::do_why() const {
  return "relative CI " + fmt("%.2g", relative_ci()) + " < " + fmt("%.2g", max_) + " after " +
         std::to_string(times_.size()) + " runs";
}

std::string RelativeCi::do_state() const { return "relative CI " + fmt("%.2g", relative_ci()); }

std::unique_ptr<StoppingCriterion> stopping_criterion(int runs, double max_rel_ci) {
  if (max_rel_ci <= 0) return std::make_unique<FixedRuns>(runs);
  return std::make_unique<RelativeCi>(max_rel_ci);
}

bool runs_done(const StoppingCriterion& c, const StopCaps& caps, int n, double elapsed_s,
               std::string* why) {
  if (n < caps.min_runs) return false;
  if (c.done()) {
    *why = c.why();
    return true;
  }
  if (caps.max_runs > 0 && n >= caps.max_runs) {
    *why = "run cap " + std::to_string(n) + " reached with " + c.state();
    return true;
  }
  if (caps.time_limit_s > 0 && elapsed_s >= caps.time_limit_s) {
    *why = "time limit " + fmt("%.3g s", caps.time_limit_s) + " reached after " +
           std::to_string(n) + " runs, " + c.state();
    return true;
  }
  return false;
}

}  // namespace edp::bench
