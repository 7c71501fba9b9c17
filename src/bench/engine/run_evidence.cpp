// One window's energy and evidence (see run_evidence.h).
#include "bench/engine/run_evidence.h"
#include "bench/engine/rules.h"
#include "common/text.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

// Self-contained (no bench/sweep/sweep.h): the monitor library (src/monitor)
// compiles this file too, without the rest of the engine.
namespace edp::bench {
namespace {

void add_note(std::string& note, const std::string& text) {
  note += (note.empty() ? "" : "; ") + text;
}

}  // namespace

std::string judge_window(const power::Measurement& m, const WindowContext& w,
                         report::RunRecord& r) {
  auto is_total = [&](const std::string& rail) {
    return std::find(w.total_rails.begin(), w.total_rails.end(), rail) != w.total_rails.end();
  };
  r.samples = m.samples;
  r.start_monotonic_s = m.t0_s;
  r.end_monotonic_s = m.t1_s;
  r.start_unix_s = m.t0_unix_s;
  r.end_unix_s = m.t1_unix_s;
  // The interval the window is judged by: observed by the sampler, else as
  // the sensors state it, so that the first window of a session is judged
  // as the later ones are, not by what ran before (DESIGN §3).
  const double interval_s =
      m.update_interval_s > 0 ? m.update_interval_s : std::max(0.0, w.stated_update_interval_s);
  r.update_interval_s = interval_s > 0 ? interval_s : NAN;
  r.lag_correction_s = m.lag_correction_s;
  r.read_failures = m.read_failures;
  r.missed_deadlines = m.missed_deadlines;
  r.missed_in_slow_reads = m.missed_in_slow_reads;
  r.frozen = m.frozen;
  r.anomalies = m.anomalies;
  bool first_total = true;
  ConfidenceEvidence evidence;  // for the confidence rule (bench/engine/rules.h)
  for (const auto& rail : m.rails) {
    r.rails.push_back({rail.rail, rail.energy_j / w.blocks, rail.power_w_mean});
    if (!is_total(rail.rail)) continue;
    r.distinct_values = first_total ? rail.distinct_values
                                    : std::min<uint64_t>(r.distinct_values, rail.distinct_values);
    r.largest_gap_s =
        first_total ? rail.largest_gap_s : std::max(r.largest_gap_s, rail.largest_gap_s);
    first_total = false;
    // An averaging rail whose lag could not be corrected (its period was not
    // known yet when the window opened) lost about (P_run - P_idle) x T.
    evidence.averaging_uncorrected |=
        rail.timing == power::Timing::averaging && rail.lag_correction_s == 0;
    if (rail.lag_edge_bounded) evidence.lag_edges_bounded.push_back(rail.rail);
    // A stated averaging period that the measured update interval contradicts:
    // the correction used the wrong period.
    if (rail.timing == power::Timing::averaging && rail.lag_correction_s > 0 &&
        rail.update_interval_s > 0 &&
        std::fabs(rail.lag_correction_s / rail.update_interval_s - 1) > 0.25)
      evidence.period_mismatches.push_back(
          rail.rail + ": stated averaging period " + fmt("%.3g s", rail.lag_correction_s) +
          " but updates every " + fmt("%.3g s", rail.update_interval_s));
  }

  // Only failures on the rails that make "energy" spoil it; a flaky rail
  // outside the total is reported but does not discard good data.
  std::string total_failure, other_failure;
  for (const auto& rail : m.rails) {
    std::string why;
    if (rail.read_failures > 0 || std::isnan(rail.energy_j))
      why = rail.rail + ": " + std::to_string(rail.read_failures) + " failed read(s)" +
            (m.error.empty() ? "" : " (" + m.error + ")");
    else if (rail.frozen)
      why = "frozen sensor: " + rail.rail + " kept the value it had over the whole " +
            fmt("%.2f s", m.time_s()) + " window" +
            (rail.update_interval_s > 0
                 ? " (it updates every " + fmt("%.3g s", rail.update_interval_s) + ")"
                 : " and never changed since sampling started");
    if (why.empty()) continue;
    std::string& into = is_total(rail.rail) ? total_failure : other_failure;
    if (into.empty()) into = why;
    if (rail.frozen && is_total(rail.rail) && evidence.frozen_why.empty())
      evidence.frozen_why = why;
  }
  if (total_failure.empty() && !m.complete && m.read_failures == 0)
    total_failure = m.error;  // the sampler did not cover the window's end

  // No total rails while the source has rails: discovery could not tell
  // which rails nest (power/total_rails.h). The sum of every rail would count
  // nested rails twice, so "energy" stays unmeasured, as with no source.
  const bool no_total = w.total_rails.empty() && !m.rails.empty();
  const double energy_j = no_total ? NAN : m.energy_j(w.total_rails) / w.blocks;
  if (total_failure.empty()) evidence.total_energy_j = energy_j;

  evidence.window_s = w.window_s;
  evidence.update_interval_s = interval_s;
  evidence.short_window_advice = w.short_window_advice;
  evidence.anomalies = m.anomalies;
  evidence.anomaly = m.anomaly;
  evidence.frozen = m.frozen;
  const Confidence confidence = judge_confidence(evidence);
  r.low_confidence = confidence.low;
  for (const auto& why : confidence.reasons) add_note(r.note, why);
  if (!total_failure.empty()) return total_failure;

  const double time_s = w.window_s / w.blocks;
  r.energy_j = energy_j;
  r.power_w_mean = no_total ? NAN : m.power_w_mean(w.total_rails);  // over the window's edges
  if (no_total)
    add_note(r.note,
             "energy not measured: no total rails (which rails nest is unknown; name them in "
             "power.total_rails)");
  r.edp_js = r.energy_j * time_s;
  if (!std::isnan(w.baseline_total_w))
    r.dynamic_energy_j = r.energy_j - w.baseline_total_w * time_s;
  if (!other_failure.empty()) add_note(r.note, "outside the total: " + other_failure);
  return "";
}

void judge_interference(const platform::Interference& i, double rate_hz, double span_s,
                        report::RunRecord& r, int threads, int cpus) {
  r.cpu_share = i.cpu_share;
  r.preempted_share = i.preempted_share;
  r.others_cpu_share = i.others_cpu_share;
  std::string why;
  char buf[200];
  // Threads pinned round-robin to fewer CPUs share them: each CPU with k
  // threads leaves each waiting 1 - 1/k, on average 1 - c/t over the team.
  const double own_wait =
      threads > 0 && cpus > 0 && threads > cpus ? 1 - static_cast<double>(cpus) / threads : 0;
  if (i.preempted_share > own_wait + kMaxPreemptedShare) {
    std::snprintf(buf, sizeof buf,
                  "the workload's threads waited for a CPU %.0f%% of the run (limit %.0f%%)",
                  100 * i.preempted_share, 100 * (own_wait + kMaxPreemptedShare));
    why = buf;
    if (own_wait > 0) {
      std::snprintf(buf, sizeof buf, ", %.0f%% of it for one another (%d threads on %d CPUs)",
                    100 * own_wait, threads, cpus);
      why += buf;
    }
  }
  // Deadlines missed while the sensor's own read ran past a period are the
  // sensor's cost, not the machine's load: only those the sampler thread was
  // late for say that something else had the CPU.
  const double expected = rate_hz > 0 && span_s > 0 ? rate_hz * span_s : 0;
  const uint64_t late = r.missed_deadlines - std::min(r.missed_deadlines, r.missed_in_slow_reads);
  if (expected > 0 && late >= kMinMissedDeadlines && late > kMaxMissedDeadlineShare * expected) {
    std::snprintf(buf, sizeof buf, "%sthe sampler missed %llu of ~%.0f deadlines",
                  why.empty() ? "" : "; ", static_cast<unsigned long long>(late), expected);
    why += buf;
  }
  if (expected > 0 && r.missed_in_slow_reads >= kMinMissedDeadlines &&
      r.missed_in_slow_reads > kMaxMissedDeadlineShare * expected) {
    std::snprintf(buf, sizeof buf,
                  "the sensor's reads outlasted the sampling period %llu times (not a "
                  "disturbance; power.rate_hz %.0f is faster than the sensor can be read)",
                  static_cast<unsigned long long>(r.missed_in_slow_reads), rate_hz);
    r.note += (r.note.empty() ? "" : "; ") + std::string(buf);
  }
  if (why.empty()) return;
  r.disturbed = true;
  if (std::isfinite(i.others_cpu_share)) {
    std::snprintf(buf, sizeof buf, "; other processes used %.0f%% of the machine",
                  100 * i.others_cpu_share);
    why += buf;
  }
  r.note += (r.note.empty() ? "" : "; ") + ("disturbed: " + why);
}

}  // namespace edp::bench
