// The preview of a sweep, before it runs (see sweep_preview.h): sensors,
// calibration and the estimate. The text and JSON forms: sweep_preview_format.cpp.
#include "bench/sweep/sweep_preview.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <memory>
#include <set>
#include <thread>

#include "bench/engine/rules.h"
#include "bench/protocol/backend_setup.h"
#include "bench/protocol/protocol.h"
#include "bench/protocol/step_timing.h"
#include "bench/studies/registry.h"
#include "bench/studies/study.h"
#include "common/elapsed.h"
#include "common/errors.h"
#include "common/json.h"
#include "platform/cpu_list.h"
#include "power/lag_correction.h"
#include "workloads/cuda_factory.h"

namespace edp::bench {
namespace {

// What EnergyMeter::measure_idle waits before measuring (power::idle_settle_s).
double baseline_settle_s(const SweepPreview& sum) {
  const bool known = sum.interval_state == "known" || sum.interval_stated;
  return power::idle_settle_s(known ? sum.update_interval_s : 0);
}

// What end_window waits after a run (DESIGN §4.2): the averaging total
// rails' lag-correction tail (power::LagCorrector::typical_tail_s), and at
// least the sampler's next tick.
double run_tail_s(const SweepPreview& sum, double rate_hz) {
  if (!sum.measures_energy || sum.total_rails.empty()) return 0;
  const double tick = rate_hz > 0 ? 1 / rate_hz : 0;
  if (sum.averaging && sum.interval_state == "known")
    return std::max(tick, power::LagCorrector::typical_tail_s(sum.update_interval_s));
  return tick;
}

void add_problem(std::vector<std::string>& problems, const std::string& p) {
  if (std::find(problems.begin(), problems.end(), p) == problems.end()) problems.push_back(p);
}

// --- sensors -------------------------------------------------------------

void describe_sensors(Session& s, const PreviewOptions& opt, SweepPreview& out) {
  power::EnergyMeter& meter = s.meter();
  const std::vector<std::string>& total = s.total_rails();
  out.discovery_log = meter.discovery_log();
  out.source = meter.source_name();
  out.measures_energy = meter.measures_energy();
  out.total_rails = total;
  out.total_rails_why = s.total_rails_why();
  if (!out.measures_energy) {
    out.update_interval_how = "no power source: nothing is measured";
    return;
  }
  bool all_counters = !total.empty();
  for (const auto& r : meter.rails()) {
    if (std::find(total.begin(), total.end(), r.info.rail) == total.end()) continue;
    out.rail_timing.push_back(
        {r.info.rail, r.sensor, power::timing_name(r.info.timing), r.info.averaging_s});
    out.averaging |= r.info.timing == power::Timing::averaging;
    all_counters &= r.info.timing == power::Timing::counter;
  }
  if (total.empty()) {
    out.update_interval_how = "unknown: no total rail";
    return;
  }
  const double stated = s.stated_update_interval_s();
  if (stated > 0) {
    out.interval_stated = true;
    out.update_interval_s = stated;
    out.interval_state = "known";
    out.update_interval_how = "stated by the sensor";
  }
  if (opt.interval_probe_s <= 0) {
    if (stated <= 0)
      out.update_interval_how = "unknown: not stated by the sensor (measured during the sweep)";
    return;
  }
  // Watch the total rails change, as the run's sampler will: the interval
  // itself when none is stated, else whether changes are seen at all (a few
  // stated intervals are enough for that).
  const double limit =
      stated > 0 ? std::min(opt.interval_probe_s, std::max(0.5, 5 * stated)) : opt.interval_probe_s;
  s.start();
  const auto t0 = SteadyClock::now();
  double seen = meter.observed_update_interval_s();
  while (seen <= 0 && seconds_since(t0) < limit) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    seen = meter.observed_update_interval_s();
  }
  const double waited = seconds_since(t0);
  if (seen > 0) {
    out.update_interval_s = seen;
    out.interval_state = "known";
    out.update_interval_how = stated > 0 ? "stated by the sensor as " + fmt("%.3g s", stated) +
                                               ", observed over " + fmt("%.1f s", waited)
                                         : "measured over " + fmt("%.1f s", waited);
  } else if (stated > 0 && waited < 3.5 * stated) {
    out.update_interval_how += " (too slow to observe in " + fmt("%.1f s", waited) + ")";
  } else {
    out.interval_state = "static";
    out.update_interval_how = std::string(stated > 0 ? "stated by the sensor, but the" : "the") +
                              " total rails " + (all_counters ? "(counters) " : "") +
                              "did not change 3 times in " + fmt("%.1f s", waited) +
                              (stated > 0 ? ": runs are judged by the stated interval"
                                          : ": runs are not judged by length");
  }
}

// --- problems ------------------------------------------------------------

// --- devices and calibration ----------------------------------------------

double step_flop(const PlanItem& item) {
  const double steps = static_cast<double>(item.settings.steps) * item.settings.runs;
  return steps > 0 ? item.flop_estimate / steps : 0;
}

// One step of all of `item`'s parts: given (PreviewOptions::step_s), else
// the device's calibrated rate scaled by the item's FLOPs; NaN unknown.
double item_step_s(const PlanItem& item, const DeviceRate& dev, const PreviewOptions& opt) {
  if (opt.step_s) return opt.step_s(item);
  if (dev.gflops > 0 && item.flop_estimate > 0) return step_flop(item) / (dev.gflops * 1e9);
  return NAN;
}

std::string workload_of(const PlanItem& item) {
  return item.parts.empty() ? std::string() : item.parts.front().name;
}

// Times a few steps of `item`'s first part on `be`, as the protocol runs
// them: Part::make (the set-up), one untimed step, then timed steps.
void calibrate(Backend& be, const PlanItem& item, int steps, DeviceRate& r) {
  // The protocol's own set-up, warm-up (one step: it pays for lazy
  // allocations and handles) and step timing (bench/protocol/step_timing.h).
  r.item = item.label;
  TimedSetup setup = make_timed(item.parts.front(), be);
  r.setup_s = setup.setup_s;
  Workload& wl = *setup.workload;
  if (!warm_up(wl, 1).failure.empty()) return;
  r.step_s = time_steps(wl, std::max(1, steps)).per_step_s();
  const double flop = wl.flop_per_step();
  if (flop > 0 && r.step_s > 0) r.gflops = flop / r.step_s / 1e9;
}

// Resolves the device as make_backend_for does (threads, CPUs, or why it is
// skipped) and, when asked, calibrates each workload on its smallest item
// (`smallest`: one per workload, in plan order). One rate per workload.
std::vector<DeviceRate> probe_device(const DeviceSpec& dev, const Config& cfg, const Session& s,
                                     const std::vector<const PlanItem*>& smallest,
                                     const PreviewOptions& opt) {
  DeviceRate base;
  base.device = dev.label;
  std::vector<DeviceRate> out;
  auto per_workload = [&](const DeviceRate& r) {
    if (smallest.empty() || !r.skipped.empty()) {
      out.push_back(r);  // one line for a device that does not run
      return out;
    }
    for (const PlanItem* item : smallest) {
      out.push_back(r);
      out.back().workload = workload_of(*item);
    }
    return out;
  };
  if (dev.kind == "gpu") {
    const std::string why = cuda_unavailable_reason(dev.index);
    if (!why.empty()) {
      base.skipped = "gpu " + std::to_string(dev.index) + " unavailable: " + why;
      return per_workload(base);
    }
    base.threads = 0;
    if (!opt.calibrate || smallest.empty()) return per_workload(base);  // no context made
  }
  try {
    BackendSetup setup = make_backend_for(dev, cfg, s.platform());
    if (!setup.backend) {
      base.skipped = setup.skip_reason;
      return per_workload(base);
    }
    base.threads = setup.threads;
    base.cpus = platform::format_cpu_list(setup.cpus);
    if (!opt.calibrate) return per_workload(base);
    for (const PlanItem* item : smallest) {
      DeviceRate r = base;
      r.workload = workload_of(*item);
      try {
        calibrate(*setup.backend, *item, opt.calibration_steps, r);
      } catch (const std::exception& e) {
        r.note = std::string("calibration failed: ") + e.what();
      }
      out.push_back(std::move(r));
    }
  } catch (const UsageError&) {
    // A CPU set this machine lacks: already a problem (machine_problems).
    base.skipped = "invalid device entry (see the problems)";
    out.clear();
    per_workload(base);
  } catch (const std::exception& e) {
    // run would fail every item of this device: a problem (preview_sweep).
    base.cannot_start = e.what();
    out.clear();
    out.push_back(base);  // one line for a device that does not run
  }
  if (dev.kind == "gpu") cuda_release_device(dev.index);
  return out;
}

// --- the estimate ----------------------------------------------------------

// The sensor as the dry run sees it (protocol.h SensorForecast): the
// interval the window policy reads and the one the runs are judged by.
SensorForecast sensor_forecast(const SweepPreview& sum) {
  SensorForecast f;
  f.measures_energy = sum.measures_energy && !sum.total_rails.empty();
  f.averaging = sum.averaging;
  const double interval = std::isnan(sum.update_interval_s) ? 0 : sum.update_interval_s;
  f.window_interval_s = sum.interval_state == "unknown" ? 0 : interval;
  // The runs judge by the observed interval, else by the stated one.
  f.judged_interval_s =
      sum.interval_state == "known" || (sum.interval_state == "static" && sum.interval_stated)
          ? interval
          : 0;
  f.interval_seen_static = sum.interval_state == "static";
  return f;
}

// One row: a dry run of the item's protocol (forecast_part, the same rules
// the runs ask) fed with its estimated step time.
void estimate_row(const PlanItem& item, double item_step_s, double setup_s,
                  const SensorForecast& sensor, double cooldown_s, double tail_s, PreviewRow& row) {
  const ProtocolSettings& set = item.settings;
  const double parts = static_cast<double>(std::max<size_t>(1, item.parts.size()));
  row.step_s = item_step_s;
  const double part_step_s = row.step_s / parts;
  const PartForecast f = forecast_part(set, part_step_s, sensor, tail_s + cooldown_s);
  row.blocks = f.blocks;
  row.window_s = f.window_s;
  row.window_rule = f.sized_by;
  row.updates = f.updates;
  row.low_confidence = f.low_confidence;
  row.runs = f.runs;
  if (std::isnan(row.window_s) || std::isnan(part_step_s)) return;
  row.setup_s = std::isnan(setup_s) ? 0 : setup_s;
  row.item_s = parts * (row.setup_s + set.warmup_steps * part_step_s +
                        row.runs * (row.window_s + tail_s + cooldown_s));
}

// The idle baselines run would take, by the runner's own rules (sweep.h:
// takes_sweep_baseline, baseline_state, BaselineCadence): a host baseline
// before the sweep when it has no operating points, then one per state
// (device context and point) at its first item and again every
// baseline_every items. Skipped and done items take none.
int count_baselines(const Config& cfg, const std::vector<PlanItem>& items,
                    const std::vector<PreviewRow>& rows) {
  int n = 0;
  BaselineCadence cadence(cfg.power.baseline_every);
  // The runner's first baseline comes before any item is tried, so a sweep
  // whose items are all skipped takes it too; done items are not tried.
  const bool todo =
      std::any_of(rows.begin(), rows.end(), [](const PreviewRow& r) { return r.status != "done"; });
  if (todo && takes_sweep_baseline(cfg)) {
    cadence.taken("host");
    ++n;
  }
  for (size_t i = 0; i < items.size(); ++i) {
    if (!rows[i].status.empty()) continue;  // done or skipped: no baseline
    const std::string state = baseline_state(items[i]);
    if (cadence.due(state)) {
      cadence.taken(state);
      ++n;
    }
    cadence.used(state);
  }
  return n;
}

void estimate_sweep(const Config& cfg, const std::vector<PlanItem>& items, SweepPreview& sum) {
  bool all_known = true, adaptive = false, gemm_auto = false;
  double windows = 0, warmup = 0, setup = 0, lag = 0, cooldown = 0;
  const double lag_run_s = run_tail_s(sum, cfg.power.rate_hz);
  for (size_t i = 0; i < items.size(); ++i) {
    const PlanItem& item = items[i];
    const PreviewRow& row = sum.rows[i];
    if (row.status == "done") {
      ++sum.items_done;
      continue;
    }
    if (row.status.rfind("cannot start", 0) == 0) {
      ++sum.items_failing;
      continue;
    }
    if (!row.status.empty()) {
      ++sum.items_skipped;
      continue;
    }
    ++sum.items;
    const double parts = static_cast<double>(std::max<size_t>(1, item.parts.size()));
    const int runs = row.runs * static_cast<int>(parts);
    sum.total_runs += runs;
    if (row.low_confidence == "yes") sum.low_confidence_runs += runs;
    adaptive |= item.settings.max_rel_ci > 0;
    gemm_auto |= item.settings.gemm_auto;
    cooldown += runs * cfg.cooldown_s;
    lag += runs * lag_run_s;
    if (std::isnan(row.item_s)) {
      all_known = false;
      continue;
    }
    windows += runs * row.window_s;
    warmup += parts * item.settings.warmup_steps * row.step_s / parts;
    setup += parts * row.setup_s;
  }
  sum.cooldown_s = cooldown;
  sum.lag_tail_s = lag;
  if (sum.measures_energy && !sum.total_rails.empty() && cfg.power.baseline_s > 0) {
    sum.baselines = count_baselines(cfg, items, sum.rows);
    sum.baselines_s = sum.baselines * (baseline_settle_s(sum) + cfg.power.baseline_s + lag_run_s);
  }
  if (all_known) {
    sum.windows_s = windows;
    sum.warmup_s = warmup;
    sum.setup_s = setup;
    sum.total_s = windows + warmup + setup + sum.baselines_s + lag + cooldown;
  }
  if (!all_known)
    sum.notes.push_back(
        "durations unknown for some items (no calibration, or it failed): no total estimate");
  if (adaptive)
    sum.notes.push_back(
        "some items stop on a CI target (max_rel_ci): they may run more than the runs counted");
  if (gemm_auto)
    sum.notes.push_back(
        "cpu gemm: auto times the BLAS library against Eigen once per shape first (not "
        "counted)");
  if (cfg.max_start_temp_c > 0)
    sum.notes.push_back("waiting for max_start_temp_c before runs is not counted");
  if (!std::isnan(sum.total_s))
    sum.notes.push_back(
        "step times scale the smallest item's rate by FLOPs and set-up is the smallest "
        "item's: larger sizes usually run faster per FLOP, so the estimate errs long");
}

}  // namespace

SweepPreview preview_sweep(const Config& cfg, Session& s, const PreviewOptions& opt) {
  SweepPreview sum;
  const platform::Platform& p = s.platform();
  sum.config_path = cfg.source_path;
  sum.board = p.model;
  sum.soc = p.soc;
  sum.l4t = p.l4t_release;
  sum.nvpmodel = p.nvpmodel_mode;
  sum.online_cpus = static_cast<int>(p.online_cpus().size());

  describe_sensors(s, opt, sum);
  for (auto& problem : device_problems(cfg, p)) add_problem(sum.problems, std::move(problem));
  SweepPlan plan = plan_studies(cfg);
  for (auto& p : plan.problems) add_problem(sum.problems, std::move(p));
  const std::vector<PlanItem> items = std::move(plan.items);

  // One device at a time, in the config's order; each workload calibrated
  // on its item with the fewest FLOPs per step among those still to run.
  std::map<std::pair<std::string, std::string>, size_t> rate_of;  // (device, workload)
  for (const auto& dev : cfg.devices) {
    std::vector<const PlanItem*> smallest;
    for (const auto& item : items) {
      if (item.device != &dev || (opt.done && opt.done(item.key))) continue;
      auto same = std::find_if(smallest.begin(), smallest.end(), [&](const PlanItem* o) {
        return workload_of(*o) == workload_of(item);
      });
      if (same == smallest.end())
        smallest.push_back(&item);
      else if (step_flop(item) < step_flop(**same))
        *same = &item;
    }
    for (auto& r : probe_device(dev, cfg, s, smallest, opt)) {
      if (!r.cannot_start.empty())
        add_problem(sum.problems, "device " + r.device +
                                      ": its backend cannot start, so run would "
                                      "fail its items: " +
                                      r.cannot_start);
      rate_of[{r.device, r.workload}] = sum.devices.size();
      sum.devices.push_back(std::move(r));
    }
  }

  const double tail_s = run_tail_s(sum, cfg.power.rate_hz);
  const SensorForecast sensor = sensor_forecast(sum);
  for (const auto& item : items) {
    PreviewRow row;
    row.study = item.study;
    row.key = item.key;
    row.label = item.label;
    row.device = item.device->label;
    row.steps = item.settings.steps;
    row.runs = item.settings.runs;
    row.warmup = item.settings.warmup_steps;
    row.parts = item.parts.size();
    // A done item's workload may have no rate; any of its device's says the threads.
    auto it = rate_of.find({row.device, workload_of(item)});
    if (it == rate_of.end())
      it = std::find_if(rate_of.begin(), rate_of.end(),
                        [&](const auto& kv) { return kv.first.first == row.device; });
    DeviceRate none;
    const DeviceRate& dev = it == rate_of.end() ? none : sum.devices[it->second];
    row.threads = dev.threads;
    if (opt.done && opt.done(item.key))
      row.status = "done";
    else if (!dev.skipped.empty())
      row.status = "skipped: " + dev.skipped;
    else if (!dev.cannot_start.empty())
      row.status = "cannot start: " + dev.cannot_start;
    else
      estimate_row(item, item_step_s(item, dev, opt), dev.setup_s, sensor, cfg.cooldown_s, tail_s,
                   row);
    sum.rows.push_back(std::move(row));
  }
  estimate_sweep(cfg, items, sum);
  return sum;
}

SweepPreview preview_config(const Config& cfg, const std::string& sysfs_root,
                            const PreviewOptions& opt) {
  // Every problem at once, each with the config's place (as `run` checks),
  // the config's own first when it was loaded with keep_going.
  std::vector<std::string> problems = cfg.problems;
  Session session(session_options(cfg, sysfs_root));
  for (auto& p : machine_problems(cfg, session)) add_problem(problems, p);
  SweepPreview sum = preview_sweep(cfg, session, opt);
  for (auto& p : sum.problems) add_problem(problems, p);
  sum.problems = std::move(problems);
  return sum;
}

}  // namespace edp::bench
