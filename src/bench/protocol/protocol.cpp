// The measurement protocol (see protocol.h).
#include "bench/protocol/protocol.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "bench/engine/rules.h"
#include "bench/engine/run_evidence.h"
#include "bench/engine/signals.h"
#include "bench/engine/window.h"
#include "bench/protocol/backend_setup.h"
#include "bench/protocol/baseline.h"
#include "bench/protocol/device_clocks.h"
#include "bench/protocol/step_timing.h"
#include "common/elapsed.h"
#include "common/text.h"
#include "platform/peaks.h"
#include "workloads/cuda_factory.h"
#include "workloads/step_loop.h"

namespace edp::bench {
namespace {

void add_note_once(std::string& note, const std::string& text) {
  if (text.empty() || note.find(text) != std::string::npos) return;
  note += (note.empty() ? "" : "; ") + text;
}

int severity(const std::string& status) {
  return status == "failed" ? 2 : status == "skipped" ? 1 : 0;
}

// The rules of a part's runs (bench/engine/rules.h), from its settings and
// the total rails' update interval: the runs and `plan`'s dry run
// (forecast_part) ask the same objects.
struct PartRules {
  WindowPolicy window;
  std::unique_ptr<StoppingCriterion> criterion;
  StopCaps caps;
};

PartRules part_rules(const ProtocolSettings& set, double update_interval_s) {
  PartRules r{WindowPolicy(set.min_run_s, set.min_run_auto, update_interval_s),
              stopping_criterion(set.runs, set.max_rel_ci),
              StopCaps{set.runs, set.max_runs, set.time_limit_s}};
  r.criterion->start();
  return r;
}

// 3. One run: reset, cool down, synchronise, snapshot, window, blocks of
// steps, synchronise, close, judge. The window policy says when the window
// has enough blocks: the first run repeats them until the window is long
// enough, later runs repeat the count it found (WindowPolicy::fix_blocks),
// so every run of a part does the same work and its time and energy are
// comparable.
report::RunRecord run_trial(Session& session, const ProtocolHooks& h, const PlanItem& item,
                            Workload& wl, int run, const WindowPolicy& policy,
                            const std::vector<int>& cpus, double baseline_w,
                            report::PartRecord& rec) {
  const ProtocolSettings& set = item.settings;
  Backend& be = wl.backend();
  report::RunRecord r;
  r.run = run;
  wl.reset();
  r.note = session.cool_down();
  be.synchronize();
  const platform::Snapshot before = session.prober().snapshot();
  const std::string window = item.key + "/" + rec.workload + "#" + std::to_string(run);
  const std::string label = item.label + (item.parts.size() > 1 ? "/" + rec.workload : "");
  const double progress_units = wl.flop_per_step();
  const std::unique_ptr<RunWindow> opened = session.open_window(window, /*probe_activity=*/true);
  RunWindow& win = *opened;
  // Blocks of steps, each bracketed by the device timer (the steps alone),
  // until the window is long enough.
  StepLoop loop;
  loop.steps_per_block = set.steps;
  loop.device_timer = true;
  loop.another = [&](const StepLoopResult& done) {
    return policy.another_block(done.blocks, win.elapsed_s());
  };
  const auto advance = [&](const StepLoopResult& done) {
    if (h.progress) h.progress->advance(done.blocks == 0 ? progress_units : 0, label);
  };
  const StepLoopResult steps = run_steps(
      be, loop, [&wl] { wl.step(); }, throw_if_stop_requested, advance);
  const int blocks = steps.blocks;
  const double device_s = steps.device_s;
  // A stop taken during the last step (a command's wait forwards it): the run
  // in progress is not one of the runs done.
  throw_if_stop_requested();
  // The threads whose CPU share the interference probe judges: the backend's
  // (1 for a GPU's launching thread); none when the work runs in another
  // process (a command: its CPU time counts as ours, not as others').
  const int threads = wl.runs_in_process() ? std::max(1, rec.threads) : 0;
  WindowJudging judging = session.judging(baseline_w);
  judging.threads = threads;
  judging.cpus = static_cast<int>(cpus.size());
  const std::string failure = win.close(judging, blocks, r);
  if (h.timeline) h.timeline->add(item.study, item.key, rec.workload, run, win.measurement());
  const platform::Snapshot after = session.prober().snapshot();
  if (device_s > 0) r.gpu_time_s = device_s / blocks;
  r.final_loss = wl.result();
  r.start_temp_c = before.max_temp_c;
  r.end_temp_c = after.max_temp_c;
  const platform::Platform& p = session.platform();
  r.start_cpu_mhz = cpu_mhz(p, before, cpus);
  r.end_cpu_mhz = cpu_mhz(p, after, cpus);
  r.start_gpu_mhz = gpu_mhz(before);
  r.end_gpu_mhz = gpu_mhz(after);
  std::string why;
  // Judged on the snapshot taken right after the last synchronise, while the
  // clocks are still at load: before the run, idle governors (schedutil,
  // nvhost_podgov) have legitimately lowered them.
  r.throttled = platform::throttled(p, after, cpus, item.device->kind == "gpu", 0.95, &why);
  if (r.throttled) add_note_once(r.note, "throttled: " + why);
  if (!failure.empty()) {
    rec.status = "failed";
    const std::string err = "energy incomplete in run " + std::to_string(run) + ": " + failure;
    if (rec.note.find("energy incomplete") == std::string::npos) add_note_once(rec.note, err);
    // A frozen sensor's reason is already in the run's note (the confidence
    // rule's): said once.
    if (r.note.find(failure) == std::string::npos) add_note_once(r.note, err);
  }
  if (h.progress) {
    std::string msg =
        "edpbench: " + label + " run " + std::to_string(run) + ": " + fmt("%.4g s", r.time_s);
    if (!std::isnan(r.energy_j)) msg += ", " + fmt("%.4g J", r.energy_j);
    if (!std::isnan(r.final_loss)) msg += ", loss " + fmt("%.6g", r.final_loss);
    if (r.low_confidence) msg += " (low confidence)";
    if (r.disturbed) msg += " (disturbed)";
    h.progress->status(msg);
  }
  return r;
}

// One part: 1. set-up (timed), 2. warm-up, 3. runs, 4. summary flags.
void run_part(Session& session, const ProtocolHooks& h, const PlanItem& item, const Part& part,
              Backend& be, const std::vector<int>& cpus, double baseline_w,
              report::PartRecord& rec) {
  const ProtocolSettings& set = item.settings;
  TimedSetup setup = make_timed(part, be);
  std::unique_ptr<Workload> wl = std::move(setup.workload);
  rec.setup_s = setup.setup_s;
  rec.flop_per_step = wl->flop_per_step();
  rec.bytes_per_step = wl->bytes_per_step();
  if (set.gemm_auto) {
    if (!h.gemm_chooser) throw std::logic_error("run_protocol: gemm: auto needs a GEMM chooser");
    h.gemm_chooser->choose(be, *wl, set.gemm_shape);
  }

  const WarmUp warm = warm_up(*wl, set.warmup_steps, [&] {
    if (h.progress) h.progress->advance(0, item.label + " warm-up");
  });
  rec.initial_loss = warm.initial_result;
  if (!warm.failure.empty()) {  // a failed step (a command's non-zero exit): nothing runs
    rec.status = "failed";
    rec.stop_reason = "warm-up step " + std::to_string(warm.steps) + " failed";
    add_note_once(rec.note, rec.stop_reason + ": " + warm.failure);
    return;
  }

  // The window's minimum from the sensor's model: its update interval as
  // observed, else as the sensor states it (DESIGN §3).
  PartRules rules = part_rules(set, session.update_interval_s());
  const auto t_runs = SteadyClock::now();
  std::string why;
  for (int run = 1;
       !runs_done(*rules.criterion, rules.caps, static_cast<int>(rec.run_records.size()),
                  seconds_since(t_runs), &why);
       ++run) {
    rec.run_records.push_back(
        run_trial(session, h, item, *wl, run, rules.window, cpus, baseline_w, rec));
    rules.criterion->add(rec.run_records.back());
    if (run == 1) rules.window.fix_blocks(rec.run_records.front().blocks);
    const std::string failed = wl->step_failure();
    if (!failed.empty()) {  // the run is kept, with why; no more runs
      rec.status = "failed";
      why = "run " + std::to_string(run) + " failed";
      add_note_once(rec.note, "run " + std::to_string(run) + " failed: " + failed);
      add_note_once(rec.run_records.back().note, failed);
    }
    if (h.on_run) h.on_run(rec, rec.run_records.back());
    if (!failed.empty()) break;
  }
  rec.stop_reason = why;
  rec.runs = static_cast<int>(rec.run_records.size());

  const double final_result = rec.run_records.back().final_loss;
  if (!std::isnan(rec.initial_loss)) {
    rec.diverged = !std::isfinite(final_result) || !std::isfinite(rec.initial_loss) ||
                   final_result > rec.initial_loss;
    if (rec.diverged)
      add_note_once(rec.note, "diverged: loss went from " + fmt("%.6g", rec.initial_loss) + " to " +
                                  fmt("%.6g", final_result));
  }
  int low = 0, disturbed = 0;
  for (const auto& r : rec.run_records) {
    low += r.low_confidence;
    disturbed += r.disturbed;
  }
  if (disturbed)
    add_note_once(rec.note,
                  std::to_string(disturbed) +
                      " run(s) disturbed (see runs.csv: the threads waited for a CPU or the "
                      "sampler ran late; measure on a quiet machine)");
  if (low)
    add_note_once(rec.note, std::to_string(low) + " run(s) low_confidence (see runs.csv: " +
                                low_confidence_causes() + "; raise power.min_run_s or use auto)");
}

// The device's nominal ceilings (DESIGN §9.1), for the studies that report
// against them: FLOP/s at the nominal clock and at the clock read now, and
// the memory bandwidth of the board table.
void record_peaks(const Session& session, const DeviceSpec& dev, const std::vector<int>& cpus,
                  report::ItemRecord& rec) {
  const platform::Platform& p = session.platform();
  const platform::Peak peak = dev.kind == "gpu" ? platform::gpu_peak(p, cuda_device_info(dev.index))
                                                : platform::cpu_peak_now(p, cpus);
  rec.values["peak_flops_nominal"] = peak.flops_nominal;
  rec.values["peak_flops_at_clock"] = peak.flops_at_clock;
  rec.values["peak_bytes_per_s"] = peak.bytes_per_s;
}

}  // namespace

WarmUp warm_up(Workload& wl, int steps, const std::function<void()>& after_step) {
  WarmUp w;
  for (int i = 0; i < steps; ++i) {
    throw_if_stop_requested();
    wl.step();
    // A stop taken during the step (a command's wait forwards it) is an
    // interruption, not a failed step, whatever the stopped command exited.
    throw_if_stop_requested();
    ++w.steps;
    if (i == 0) w.initial_result = wl.result();
    w.failure = wl.step_failure();
    if (!w.failure.empty()) return w;
    if (after_step) after_step();
  }
  wl.backend().synchronize();
  return w;
}

report::ItemRecord blank_record(const Session& session, const PlanItem& item) {
  report::ItemRecord rec;
  rec.study = item.study;
  rec.key = item.key;
  rec.label = item.label;
  rec.params = item.params;
  rec.values = item.values;
  rec.device = item.device->label;
  std::string rails;
  for (const auto& r : session.total_rails()) rails += (rails.empty() ? "" : "+") + r;
  for (const Part& part : item.parts) {
    report::PartRecord c;
    c.study = item.study;
    c.key = item.key;
    c.workload = part.name;
    c.size = item.size;
    c.device = item.device->label;
    c.iterations = item.settings.steps;
    c.runs = item.settings.runs;
    c.power_source = session.meter().source_name();
    c.energy_rails = rails;
    c.operating_point = item.point_name;
    rec.parts.push_back(std::move(c));
  }
  return rec;
}

report::ItemRecord run_protocol(Session& session, const ProtocolHooks& h, const PlanItem& item) {
  report::ItemRecord rec = blank_record(session, item);
  if (h.before_backend) h.before_backend(rec);
  // check(): a device this build or machine lacks is skipped with the reason.
  BackendSetup setup = make_backend_for(*item.device, h.cfg, session.platform());
  if (!setup.backend) {
    rec.status = "skipped";
    rec.note = setup.skip_reason;
    for (auto& p : rec.parts) {
      p.status = "skipped";
      p.note = setup.skip_reason;
    }
    return rec;
  }
  Backend& be = *setup.backend;
  record_peaks(session, *item.device, setup.cpus, rec);
  const std::string state = baseline_state(item);
  const std::optional<Baseline> baseline = session.baseline_for(state, item.label);
  session.baseline_used(state);
  const double baseline_w = baseline ? baseline->total_w : NAN;
  for (size_t i = 0; i < item.parts.size(); ++i) {
    report::PartRecord& part = rec.parts[i];
    part.threads = setup.threads;
    if (baseline) part.baseline_w = baseline_w;
    run_part(session, h, item, item.parts[i], be, setup.cpus, baseline_w, part);
    if (severity(part.status) > severity(rec.status)) rec.status = part.status;
    add_note_once(rec.note, part.note);
  }
  if (h.after_parts) h.after_parts(be, setup.cpus, rec);
  // The backend's facts, with every GEMM path `gemm: auto` chose for it so
  // far, by shape (the last item's own choice is gemm_choice).
  if (h.backends) {
    auto facts = be.describe();
    if (h.gemm_chooser)
      for (const auto& [shape, choice] : h.gemm_chooser->decisions_for(facts))
        facts["gemm_choice " + shape] = choice;
    (*h.backends)[item.device->label] = std::move(facts);
  }
  return rec;
}

PartForecast forecast_part(const ProtocolSettings& set, double step_s, const SensorForecast& sensor,
                           double run_overhead_s) {
  PartForecast f;
  PartRules rules = part_rules(set, sensor.window_interval_s);
  const double block_s = set.steps * step_s;
  const bool known = block_s > 0;  // NaN or 0: the step time is unknown
  if (known) {
    f.blocks = rules.window.blocks_for(block_s);
    f.window_s = f.blocks * block_s;
  } else if (rules.window.min_window_s() > 0) {
    f.window_s = rules.window.min_window_s();  // a lower bound: the blocks may make it longer
  }
  f.sized_by = rules.window.sized_by(f.blocks);

  // The confidence rule on the window, judged as the run's sampler will
  // judge it: by length only when it sees the interval.
  ConfidenceEvidence ev;
  ev.window_s = f.window_s;
  if (!sensor.measures_energy) {
    f.low_confidence = "-";
  } else if (sensor.judged_interval_s <= 0 && sensor.interval_seen_static) {
    ev.averaging_uncorrected = sensor.averaging;  // no period: no lag correction
    f.low_confidence = judge_confidence(ev).low ? "yes" : "no";
  } else if (std::isnan(f.window_s) || sensor.judged_interval_s <= 0) {
    f.low_confidence = "?";
  } else {
    ev.update_interval_s = sensor.judged_interval_s;
    f.updates = f.window_s / sensor.judged_interval_s;
    f.low_confidence = judge_confidence(ev).low ? "yes" : "no";
  }

  // The runs, as the stopping criterion and the caps end them, of identical
  // estimated runs (a CI target is met as soon as the criterion has two).
  const double run_s = std::isnan(f.window_s) ? 0 : f.window_s + run_overhead_s;
  double elapsed_s = 0;
  while (!runs_done(*rules.criterion, rules.caps, f.runs, elapsed_s, &f.stop_reason)) {
    report::RunRecord r;
    r.run = ++f.runs;
    r.blocks = std::max(1, f.blocks);
    r.time_s = known ? block_s : 1;  // any equal times when unknown
    rules.criterion->add(r);
    elapsed_s += run_s;
    if (f.runs == 1) rules.window.fix_blocks(r.blocks);
  }
  return f;
}

}  // namespace edp::bench
