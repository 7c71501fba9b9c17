// The deploy study's measurements (see deploy_measure.h; docs/deploy.md
// says what each one is and why it is taken this way).
#include "bench/studies/deploy/deploy_measure.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <functional>

#include "bench/engine/signals.h"
#include "bench/protocol/backend_setup.h"
#include "bench/protocol/step_timing.h"
#include "bench/studies/deploy/deploy_arrivals.h"
#include "common/elapsed.h"
#include "report/csv.h"
#include "report/deploy_csv.h"
#include "report/deploy_model.h"
#include "report/stats.h"
#include "workloads/cuda_factory.h"

namespace edp::bench {
namespace {

namespace dv = report::deploy_values;

// Windows per idle state: enough for a CI.
constexpr int kStateWindows = 3;

// An open-loop check still serving at this many times its length, and
// busy for this share of it, stops (docs/deploy.md, "overloaded").
constexpr double kOverloadedAfter = 2;
constexpr double kBusyShare = 0.9;

void put_summary(report::ItemRecord& rec, const std::string& value, const std::string& ci,
                 const std::vector<double>& samples) {
  const report::Summary s = report::summarize(samples);
  if (s.n == 0) return;
  rec.values[value] = s.mean;
  rec.values[ci] = s.n >= 2 ? s.ci95 : NAN;  // one sample: no CI (unknown, not exact)
}

uint64_t seed_of(const std::string& key, double rate_hz, uint64_t seed) {
  uint64_t h = seed ^ 0x9e3779b97f4a7c15ULL;
  for (const char c : key) h = (h ^ static_cast<unsigned char>(c)) * 0x100000001b3ULL;
  return h ^ static_cast<uint64_t>(rate_hz * 1e6);
}

}  // namespace

GateDelay gate_delay(const Config& cfg, const platform::Platform& platform, const DeviceSpec& dev) {
  GateDelay g;
  if (cfg.power.source == "simulated" && cfg.power.simulated.sleep_after_s > 0) {
    g.delay_s = cfg.power.simulated.sleep_after_s;
    g.source = dv::kGateFromSimulated;
  } else if (dev.kind != "gpu") {
    g.absent = dv::kNoGateOnCpu;
  } else if (platform.gpu_railgate_path.empty() || platform.gpu_railgate_delay_ms < 0) {
    g.absent = dv::kNoRailgateFile;
  } else if (platform.gpu_railgate_enable == 0) {
    g.absent = dv::kRailgateDisabled;
  } else {
    g.delay_s = static_cast<double>(platform.gpu_railgate_delay_ms) / 1e3;
    g.source = dv::kGateFromBoard;
  }
  return g;
}

double burst_tail_s(const Config& cfg) { return std::max(0.02, 3.0 / cfg.power.rate_hz); }

DeployPass::DeployPass(Session& session, const Config& cfg, const PlanItem& item,
                       report::ItemRecord& rec)
    : session_(session),
      cfg_(cfg),
      deploy_(cfg.section<DeployConfig>()),
      item_(item),
      rec_(rec),
      gate_(gate_delay(cfg, session.platform(), *item.device)),
      tail_s_(burst_tail_s(cfg)) {
  if (std::isfinite(gate_.delay_s)) {
    rec_.values[dv::kGateDelayS] = gate_.delay_s;
    rec_.values[dv::kGateSource] = gate_.source;
  } else {
    rec_.values[dv::kGateAbsent] = gate_.absent;
  }
}

template <class Body>
DeployPass::Window DeployPass::windowed(const std::string& name, Body body) {
  report::RunRecord r;
  std::unique_ptr<RunWindow> win = session_.open_window(item_.key + "/" + name, false);
  body();
  const std::string failure = win->close(session_.judging(NAN), 1, r);
  Window w;
  w.span_s = win->span_s();
  if (failure.empty()) w.energy_j = r.energy_j;
  return w;
}

double DeployPass::single_burst(Workload& wl) {
  throw_if_stop_requested();
  const auto t0 = SteadyClock::now();
  wl.step();
  be_->synchronize();
  return seconds_since(t0);
}

// Warm bursts one by one, each synchronised: a request's latency.
void DeployPass::latency(Workload& wl) {
  const int n = item_.params.front().second == "infer" ? deploy_.bursts : deploy_.train_bursts;
  std::vector<double> t;
  for (int i = 0; i < n; ++i) t.push_back(single_burst(wl));
  rec_.values[dv::burst("count")] = n;
  put_summary(rec_, dv::burst("mean_s"), dv::burst("ci95_s"), t);
  rec_.values[dv::burst("p50_s")] = report::quantile(t, 0.5);
  rec_.values[dv::burst("p90_s")] = report::quantile(t, 0.9);
  rec_.values[dv::burst("p99_s")] = report::quantile(t, 0.99);
}

// Idle power right after a burst (the context state), in windows that end
// before the gating delay, and once gated (after the delay), in windows of
// their own: power = energy / span of each window.
void DeployPass::idle_states(Workload& wl) {
  const double total_s = deploy_.idle_s;
  double each_s = total_s / kStateWindows;
  if (std::isfinite(gate_.delay_s)) each_s = std::min(each_s, 0.8 * gate_.delay_s - tail_s_);
  if (each_s > 0.005) {
    const int windows =
        std::min(1000, std::max(kStateWindows, static_cast<int>(std::ceil(total_s / each_s))));
    std::vector<double> w;
    for (int i = 0; i < windows; ++i) {
      single_burst(wl);
      session_.pause(tail_s_);
      const Window win =
          windowed("idle/context#" + std::to_string(i + 1), [&] { session_.pause(each_s); });
      if (std::isfinite(win.energy_j) && win.span_s > 0) w.push_back(win.energy_j / win.span_s);
    }
    put_summary(rec_, dv::idle("context", "w"), dv::idle("context", "w_ci95"), w);
    rec_.values[dv::idle("context", "s")] = windows * each_s;
    rec_.values[dv::idle("context", "windows")] = static_cast<double>(w.size());
    context_w_ = rec_.value(dv::idle("context", "w"));
  }
  if (std::isfinite(gate_.delay_s)) {
    single_burst(wl);
    session_.pause(gate_.delay_s + std::max(0.1, 0.2 * gate_.delay_s));
    const double gated_each_s = total_s / kStateWindows;
    std::vector<double> w;
    for (int i = 0; i < kStateWindows; ++i) {
      const Window win =
          windowed("idle/gated#" + std::to_string(i + 1), [&] { session_.pause(gated_each_s); });
      if (std::isfinite(win.energy_j) && win.span_s > 0) w.push_back(win.energy_j / win.span_s);
    }
    put_summary(rec_, dv::idle("gated", "w"), dv::idle("gated", "w_ci95"), w);
    rec_.values[dv::idle("gated", "s")] = total_s;
    rec_.values[dv::idle("gated", "windows")] = static_cast<double>(w.size());
    gated_w_ = rec_.value(dv::idle("gated", "w"));
  }
  // The host state: measured by cold_starts() right after a release, or
  // else the sweep's idle baseline, taken before any context.
  if (std::isfinite(rec_.value(dv::idle("host", "w")))) return;
  if (const auto host = session_.current_baseline("host"); host && std::isfinite(host->total_w)) {
    rec_.values[dv::idle("host", "w")] = host->total_w;
    rec_.values[dv::idle("host", "s")] = host->idle.duration_s;
    rec_.values[dv::idle("host", "windows")] = 1;
  }
}

report::IdleProfile DeployPass::profile(double awake_w) const {
  report::IdleProfile p;
  p.awake_w.value = awake_w;
  p.gated_w.value = gated_w_;
  p.gate_delay_s = gate_.delay_s;
  return p;
}

// A warm burst, the quiet tail, then a window: the rest of the gap, the
// first burst, the tail again. The first burst's energy is the window's
// less the idle energy of the states the gap went through (measured above).
void DeployPass::wake_costs(Workload& wl) {
  if (!std::isfinite(context_w_)) return;
  if (std::isfinite(gate_.delay_s) && !std::isfinite(gated_w_)) return;
  for (const double gap : deploy_.wake_after_s) {
    std::vector<double> times, energies, gaps;
    for (int r = 0; r < deploy_.wake_repeats; ++r) {
      single_burst(wl);
      session_.pause(tail_s_);
      double idle_in_s = 0, burst_s = 0;
      const Window win =
          windowed("wake/" + report::fmt_double(gap) + "#" + std::to_string(r + 1), [&] {
            const auto t0 = SteadyClock::now();
            session_.pause(std::max(0.0, gap - tail_s_));
            idle_in_s = seconds_since(t0);
            burst_s = single_burst(wl);
            session_.pause(tail_s_);
          });
      times.push_back(burst_s);
      gaps.push_back(tail_s_ + idle_in_s);
      const double first_j = report::first_burst_j(
          profile(context_w_),
          {win.energy_j, tail_s_, idle_in_s, std::max(0.0, win.span_s - idle_in_s - burst_s)});
      if (std::isfinite(first_j)) energies.push_back(first_j);
    }
    rec_.values[dv::first("wake", gap, "gap_s")] = report::mean(gaps);
    rec_.values[dv::first("wake", gap, "repeats")] = static_cast<double>(times.size());
    put_summary(rec_, dv::first("wake", gap, "time_s"), dv::first("wake", gap, "time_s_ci95"),
                times);
    put_summary(rec_, dv::first("wake", gap, "energy_j"), dv::first("wake", gap, "energy_j_ci95"),
                energies);
  }
}

bool DeployPass::cold_cycle(double* elapsed_s) {
  throw_if_stop_requested();
  const DeviceSpec& dev = *item_.device;
  const auto t0 = SteadyClock::now();
  {
    BackendSetup setup = make_backend_for(dev, cfg_, session_.platform());
    if (!setup.backend) return false;
    std::unique_ptr<Workload> wl = item_.parts.front().make(*setup.backend);
    wl->step();
    setup.backend->synchronize();
    if (elapsed_s) *elapsed_s = seconds_since(t0);
  }
  if (dev.kind == "gpu") cuda_release_device(dev.index);
  released_at_ = SteadyClock::now();
  return true;
}

// The host state's idle power as the release policy idles in it: right
// after a cold cycle released the context, in windows that end before the
// gating delay, as the context state's are (idle_states).
void DeployPass::host_idle() {
  const double total_s = deploy_.idle_s;
  double each_s = total_s / kStateWindows;
  if (std::isfinite(gate_.delay_s)) each_s = std::min(each_s, 0.8 * gate_.delay_s - tail_s_);
  if (!(each_s > 0.005)) return;
  const int windows =
      std::min(1000, std::max(kStateWindows, static_cast<int>(std::ceil(total_s / each_s))));
  std::vector<double> w;
  for (int i = 0; i < windows; ++i) {
    cold_cycle(nullptr);
    session_.pause(tail_s_);
    const Window win =
        windowed("idle/host#" + std::to_string(i + 1), [&] { session_.pause(each_s); });
    if (std::isfinite(win.energy_j) && win.span_s > 0) w.push_back(win.energy_j / win.span_s);
  }
  if (w.empty()) return;
  put_summary(rec_, dv::idle("host", "w"), dv::idle("host", "w_ci95"), w);
  rec_.values[dv::idle("host", "s")] = windows * each_s;
  rec_.values[dv::idle("host", "windows")] = static_cast<double>(w.size());
  rec_.values[dv::kHostAfterRelease] = 1;
}

// Cold starts: the device's context released (no backend of it alive), an
// idle gap, then a window around a new backend, the workload's set-up, its
// first burst and the release. The first cycle is not measured (libraries
// loading, page cache). The window's energy is priced by cold_costs(), once
// the gated state's power is known: each window keeps its energy and how
// its time split (raw_* values).
void DeployPass::cold_starts() {
  if (!cold_cycle(nullptr)) return;  // a device this machine lacks: the item is skipped
  host_idle();
  for (const double gap : deploy_.wake_after_s) {
    std::vector<double> times, gaps;
    for (int r = 0; r < deploy_.wake_repeats; ++r) {
      session_.pause(tail_s_);
      double lead_s = 0, idle_in_s = 0, cold_s = 0, busy_s = 0;
      const Window win =
          windowed("cold/" + report::fmt_double(gap) + "#" + std::to_string(r + 1), [&] {
            const auto t0 = SteadyClock::now();
            lead_s = std::chrono::duration<double>(t0 - released_at_).count();
            session_.pause(std::max(0.0, gap - lead_s));
            idle_in_s = seconds_since(t0);
            const auto t1 = SteadyClock::now();
            cold_cycle(&cold_s);
            busy_s = seconds_since(t1);  // the release included
            session_.pause(tail_s_);
          });
      // The cold start's time is the whole cycle, the release included: the
      // device is busy until then, and the window's energy holds it; the
      // model's next gap starts there (a request's own latency ends before
      // the release, by cold_s, so its p99 is high by the release's time).
      times.push_back(busy_s);
      gaps.push_back(lead_s + idle_in_s);
      const auto raw = [&](const char* what) {
        return dv::first("cold", gap, std::string("raw_") + what + "#" + std::to_string(r));
      };
      rec_.values[raw("energy_j")] = win.energy_j;
      rec_.values[raw("lead_s")] = lead_s;
      rec_.values[raw("idle_s")] = idle_in_s;
      rec_.values[raw("after_s")] = std::max(0.0, win.span_s - idle_in_s - busy_s);
    }
    rec_.values[dv::first("cold", gap, "gap_s")] = report::mean(gaps);
    rec_.values[dv::first("cold", gap, "repeats")] = static_cast<double>(times.size());
    put_summary(rec_, dv::first("cold", gap, "time_s"), dv::first("cold", gap, "time_s_ci95"),
                times);
  }
  release_checks();
}

// A cold window's energy less the idle the device would have had anyway:
// the gap before the cycle in the states a released device passes through
// (the host state's power up to the gating delay, the gated power past it),
// and the quiet tail after the release at the host's power. What is left
// is the cold burst (a new backend, set-up, first burst, release), which
// deploy.csv sets against a warm burst (extra_energy_j).
void DeployPass::cold_costs() {
  const double host_w = rec_.value(dv::idle("host", "w"));
  if (!std::isfinite(host_w) || rec_.value(dv::kHostAfterRelease) != 1) return;
  if (std::isfinite(gate_.delay_s) && !std::isfinite(gated_w_)) return;
  for (const double gap : deploy_.wake_after_s) {
    std::vector<double> energies;
    for (int r = 0; r < deploy_.wake_repeats; ++r) {
      const auto raw = [&](const char* what) {
        return rec_.value(
            dv::first("cold", gap, std::string("raw_") + what + "#" + std::to_string(r)));
      };
      const double first_j = report::first_burst_j(
          profile(host_w), {raw("energy_j"), raw("lead_s"), raw("idle_s"), raw("after_s")});
      if (std::isfinite(first_j)) energies.push_back(first_j);
    }
    put_summary(rec_, dv::first("cold", gap, "energy_j"), dv::first("cold", gap, "energy_j_ci95"),
                energies);
  }
}

template <class Serve>
DeployPass::OpenLoop DeployPass::serve_open_loop(const std::vector<double>& arrivals, int batch,
                                                 Serve serve) {
  const double check_s = deploy_.check_s;
  OpenLoop out;
  const auto t0 = SteadyClock::now();
  double free_s = 0;  // when the last burst ended, since t0
  double busy_s = 0;  // serving, in all
  for (size_t i = 0; i + batch <= arrivals.size(); i += batch) {
    const double due_s = arrivals[i + batch - 1] - seconds_since(t0);
    // Still serving at twice the run's length, busy nearly all along: the
    // requests come faster than this policy serves them, and the queue
    // would only grow. The run stops here rather than serve the backlog
    // for however long it takes. (A stable run whose single cycle is long
    // against check_s is mostly idle, and goes on.)
    const double now_s = seconds_since(t0);
    if (due_s <= 0 && now_s > kOverloadedAfter * check_s && busy_s >= kBusyShare * now_s) {
      out.overloaded = true;
      break;
    }
    if (due_s > 0) session_.pause(due_s);
    const double start_s = seconds_since(t0);
    out.gaps_s.push_back(due_s > 0 ? start_s - free_s : 0.0);
    const double answered_s = serve();
    free_s = seconds_since(t0);
    busy_s += free_s - start_s;
    for (size_t j = i; j < i + batch; ++j)
      out.latencies_s.push_back(start_s + answered_s - arrivals[j]);
  }
  const double left_s = check_s - seconds_since(t0);
  session_.pause(std::max(left_s, tail_s_));
  out.after_s = seconds_since(t0) - free_s;
  return out;
}

// The release policy's open-loop checks: the same arrivals as the kept
// context's check at that rate (the same seed), each batch served by a cold
// cycle, the gaps timed from the last release to the next cycle's start.
// The model's predictions wait for the whole candidate (release_predictions).
void DeployPass::release_checks() {
  const bool periodic = deploy_.arrivals == "periodic";
  int batch = 1;
  for (const auto& [name, value] : item_.params)
    if (name == "batch") batch = std::max(1, std::atoi(value.c_str()));
  for (const double rate : deploy_.check_rates_hz) {
    const std::vector<double> arrivals =
        arrival_times(rate, deploy_.check_s, periodic, seed_of(item_.key, rate, cfg_.seed));
    double lead_s = 0;
    OpenLoop run;
    session_.pause(tail_s_);
    const Window win = windowed("check_release/" + report::fmt_double(rate), [&] {
      lead_s = std::chrono::duration<double>(SteadyClock::now() - released_at_).count();
      run = serve_open_loop(arrivals, batch, [&] {
        double first_s = 0;
        cold_cycle(&first_s);
        return first_s;
      });
    });
    const std::vector<double>& latencies = run.latencies_s;
    const std::vector<double>& gaps = run.gaps_s;
    const double after_s = run.after_s;
    const auto put = [&](const std::string& what, double v) {
      rec_.values[dv::release_check(rate, what)] = v;
    };
    put("seconds", win.span_s);
    put("requests", static_cast<double>(latencies.size()));
    put("arrivals", static_cast<double>(arrivals.size()));
    put("arrivals_expected", expected_arrivals(rate, deploy_.check_s, periodic));
    put("measured_w", win.energy_j / win.span_s);
    put("latency_p99_s", report::quantile(latencies, 0.99));
    if (run.overloaded) put("overloaded", 1);
    put("lead_s", lead_s);
    put("after_s", after_s);
    for (size_t i = 0; i < gaps.size(); ++i) put("gap#" + std::to_string(i), gaps[i]);
  }
}

// The release checks priced by the model, from the item's rows as
// deploy.csv will hold them (as checks() does for the kept context).
void DeployPass::release_predictions() {
  if (deploy_.check_rates_hz.empty()) return;
  const report::CsvTable rows{report::deploy_columns(), report::deploy_rows(rec_), {}};
  const std::vector<report::Candidate> candidates =
      report::deploy_candidates(rows, "the item's own rows");
  const report::Candidate* release = nullptr;
  for (const auto& c : candidates)
    if (c.policy == "release") release = &c;
  if (!release) return;
  const bool periodic = deploy_.arrivals == "periodic";
  for (const double rate : deploy_.check_rates_hz) {
    const auto get = [&](const std::string& what) {
      return rec_.value(dv::release_check(rate, what));
    };
    if (!std::isfinite(get("seconds"))) continue;
    const report::Prediction p = report::predict(
        *release, {rate, periodic ? report::Arrivals::periodic : report::Arrivals::poisson});
    if (p.feasible) {
      rec_.values[dv::release_check(rate, "predicted_w")] = p.power_w;
      rec_.values[dv::release_check(rate, "predicted_w_ci95")] = p.power_ci95_w;
    }
    report::RealisedRun run;
    run.lead_s = get("lead_s");
    run.after_s = get("after_s");
    run.span_s = get("seconds");
    for (size_t i = 0;; ++i) {
      const double g = get("gap#" + std::to_string(i));
      if (!std::isfinite(g)) break;
      run.gaps_s.push_back(g);
    }
    const report::RealisedPrediction r = report::predict_realised(*release, run);
    if (r.known) {
      rec_.values[dv::release_check(rate, "realised_w")] = r.power_w;
      rec_.values[dv::release_check(rate, "realised_w_ci95")] = r.power_ci95_w;
    }
  }
}

// Open-loop runs: requests arrive on their own schedule (Poisson or
// periodic), a burst serves each batch as soon as it is complete, and one
// window spans the whole run. The predictions are the model's, from this
// item's rows as deploy.csv will hold them (report::deploy_candidates), so
// the check tests exactly what `recommend --rate` uses: the expectation over
// the arrival process, and the same accounting at the gaps this run
// realised (report::predict_realised), which a Poisson run's luck does not
// move.
void DeployPass::checks(Workload& wl) {
  if (deploy_.check_rates_hz.empty()) return;
  const report::CsvTable rows{report::deploy_columns(), report::deploy_rows(rec_), {}};
  const std::vector<report::Candidate> candidates =
      report::deploy_candidates(rows, "the item's own rows");
  const report::Candidate* keep = nullptr;
  for (const auto& c : candidates)
    if (c.policy == "keep") keep = &c;
  const bool periodic = deploy_.arrivals == "periodic";
  const int batch = keep ? keep->batch : 1;
  for (const double rate : deploy_.check_rates_hz) {
    if (keep) {
      const report::Prediction p = report::predict(
          *keep, {rate, periodic ? report::Arrivals::periodic : report::Arrivals::poisson});
      if (p.feasible) {
        rec_.values[dv::check(rate, "predicted_w")] = p.power_w;
        rec_.values[dv::check(rate, "predicted_w_ci95")] = p.power_ci95_w;
      }
    }
    const std::vector<double> arrivals =
        arrival_times(rate, deploy_.check_s, periodic, seed_of(item_.key, rate, cfg_.seed));
    // The gaps as they fell (report::RealisedRun): the idle before each
    // burst, 0 where a batch was complete when the last burst ended.
    report::RealisedRun run;
    OpenLoop served;
    single_burst(wl);
    const auto idle_from = SteadyClock::now();
    session_.pause(tail_s_);
    const Window win = windowed("check/" + report::fmt_double(rate), [&] {
      run.lead_s = std::chrono::duration<double>(SteadyClock::now() - idle_from).count();
      served = serve_open_loop(arrivals, batch, [&] { return single_burst(wl); });
    });
    const std::vector<double>& latencies = served.latencies_s;
    run.gaps_s = served.gaps_s;
    run.after_s = served.after_s;
    run.span_s = win.span_s;
    if (served.overloaded) rec_.values[dv::check(rate, "overloaded")] = 1;
    rec_.values[dv::check(rate, "seconds")] = win.span_s;
    rec_.values[dv::check(rate, "requests")] = static_cast<double>(latencies.size());
    rec_.values[dv::check(rate, "arrivals")] = static_cast<double>(arrivals.size());
    rec_.values[dv::check(rate, "arrivals_expected")] =
        expected_arrivals(rate, deploy_.check_s, periodic);
    rec_.values[dv::check(rate, "measured_w")] = win.energy_j / win.span_s;
    rec_.values[dv::check(rate, "latency_p99_s")] = report::quantile(latencies, 0.99);
    if (keep) {
      const report::RealisedPrediction r = report::predict_realised(*keep, run);
      if (r.known) {
        rec_.values[dv::check(rate, "realised_w")] = r.power_w;
        rec_.values[dv::check(rate, "realised_w_ci95")] = r.power_ci95_w;
      }
    }
  }
}

void DeployPass::warm(Backend& be) {
  be_ = &be;
  TimedSetup setup = make_timed(item_.parts.front(), be);
  Workload& wl = *setup.workload;
  for (int i = 0; i < 3; ++i) single_burst(wl);  // warm: clocks, caches, the pool
  latency(wl);
  idle_states(wl);
  cold_costs();
  wake_costs(wl);
  checks(wl);
  release_predictions();
}

}  // namespace edp::bench
