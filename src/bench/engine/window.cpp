// One judged window (see window.h).
#include "bench/engine/window.h"

#include <algorithm>

#include "bench/engine/run_evidence.h"
#include "power/clock.h"

namespace edp::bench {
namespace {

const platform::ActivityProbe& activity_probe() {
  static const platform::ActivityProbe probe;
  return probe;
}

}  // namespace

RunWindow::RunWindow(power::EnergyMeter& meter, std::string name, bool probe_activity)
    : meter_(meter), name_(std::move(name)), probe_activity_(probe_activity) {
  if (probe_activity_) busy_before_ = activity_probe().snapshot();
  if (meter_.measures_energy()) {
    meter_.begin_window(name_);
    open_ = true;
  }
  unix0_s_ = power::unix_now_s();
  mono0_s_ = power::now_s();
}

RunWindow::~RunWindow() {
  if (!open_) return;
  try {
    meter_.cancel_window(name_);  // no result wanted: no wait for the lag tail
  } catch (...) {                 // already unwinding: the body's error is the one to report
  }
}

double RunWindow::elapsed_s() const { return power::now_s() - mono0_s_; }

void RunWindow::cancel() {
  if (!open_) return;
  open_ = false;
  meter_.cancel_window(name_);
}

std::string RunWindow::close(const WindowJudging& judging, int blocks, report::RunRecord& r) {
  // One clock read for the end: the span and both end edges come from it
  // (the wall-clock end is the start plus the monotonic span), so a
  // preemption between two reads cannot make the edges disagree with
  // time_s (under qemu at four tests at once: 26 ms of edges for 21 ms).
  const double mono1_s = power::now_s();
  const double own_s = mono1_s - mono0_s_, unix1_s = unix0_s_ + own_s;
  power::Measurement& m = m_;
  const bool metered = open_;
  // The probe's second snapshot as soon as the energy window's end is fixed,
  // before end_window's wait for the lag tail: other threads of the process
  // (the monitor's caller's) run meanwhile, and their time would be divided
  // by the window's span.
  platform::ActivitySnapshot busy_after;
  bool probed = false;
  const auto probe = [&] {
    busy_after = activity_probe().snapshot();
    probed = true;
  };
  if (open_) {
    open_ = false;
    m = probe_activity_ ? meter_.end_window(name_, probe) : meter_.end_window(name_);
  }
  if (probe_activity_ && !probed) probe();
  blocks = std::max(1, blocks);
  r.blocks = blocks;
  // With a meter, the run's time is the energy window's own span: a clock of
  // our own around the calls differs from it by the waits for the sampler's
  // lock inside begin_window and end_window, which under load made a
  // constant-power run read 2% less energy than power x time, and a 15 us
  // ops run twice more.
  span_s_ = metered && m.time_s() > 0 ? m.time_s() : own_s;
  r.time_s = span_s_ / blocks;
  std::string failure;
  if (metered) {
    r.baseline_w = judging.baseline_total_w;  // what dynamic_energy_j subtracts
    failure =
        judge_window(m,
                     WindowContext{judging.total_rails, blocks, span_s_, judging.baseline_total_w,
                                   judging.stated_update_interval_s, judging.short_window_advice},
                     r);
  } else {
    r.start_monotonic_s = mono0_s_;
    r.end_monotonic_s = mono1_s;
    r.start_unix_s = unix0_s_;
    r.end_unix_s = unix1_s;
  }
  if (probe_activity_) {
    threads_judged_ = judging.count_busy_threads
                          ? platform::busy_threads(busy_before_, busy_after, span_s_)
                          : std::max(0, judging.threads);
    judge_interference(
        // shares over the window's span, not the snapshots' (they also
        // bracket begin_window's wait for the sampler's lock)
        platform::interference_between(busy_before_, busy_after, threads_judged_,
                                       activity_probe().ticks_per_s(), span_s_),
        metered ? judging.rate_hz : 0,
        // the deadlines were counted until the sampler let the window go
        metered && m.sampled_until_s > m.t0_s ? m.sampled_until_s - m.t0_s : span_s_, r,
        threads_judged_, judging.cpus);
  }
  return failure;
}

}  // namespace edp::bench
