// `edpbench measure -- CMD` (see measure.h): a session and one plan item,
// measured by the protocol.
#include "bench/measure/measure.h"

#include <signal.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <map>

#include "bench/engine/signals.h"
#include "bench/measure/measure_report.h"
#include "bench/protocol/protocol.h"
#include "common/atomic_file.h"
#include "common/errors.h"
#include "common/text.h"
#include "platform/platform.h"
#include "power/clock.h"

namespace edp::bench {

SessionOptions measure_session_defaults() {
  SessionOptions o;
  o.power.baseline_s = 0;
  return o;
}

std::string measure_option_name(const std::string& path) {
  static const std::map<std::string, std::string> flags{
      {"power.source", "--power-source"},     {"power.trace.file", "--trace"},
      {"power.total_rails", "--total-rails"}, {"power.rate_hz", "--rate-hz"},
      {"power.baseline_s", "--baseline-s"},   {"cooldown_s", "--cooldown-s"},
      {"power.timeline_hz", "--timeline-hz"}};
  const auto it = flags.find(path);
  return it == flags.end() ? path : it->second;
}

const DeviceSpec& host_device() {
  static const DeviceSpec host = [] {
    DeviceSpec d;
    d.kind = "host";
    d.label = "host";
    return d;
  }();
  return host;
}

PlanItem command_item(const MeasureOptions& opt, const sigset_t& child_mask, bool give_terminal,
                      std::shared_ptr<CommandOutcome> outcome) {
  PlanItem item;
  const std::string label = opt.label.empty() ? command_line(opt.command) : opt.label;
  item.study = "measure";
  item.params = {{"label", label}};
  item.key = item_key(item.study, item.params);
  item.label = label;
  item.device = &host_device();
  item.settings.warmup_steps = opt.warmup;
  item.settings.steps = 1;
  item.settings.runs = opt.runs;
  item.settings.min_run_s = 0;  // one block per run
  item.settings.max_rel_ci = 0;
  CommandSpec spec;
  spec.argv = opt.command;
  spec.name = label;
  spec.child_mask = child_mask;
  spec.give_terminal = give_terminal;
  item.parts.push_back(Part{
      label, [spec, outcome](Backend& be) { return make_command_workload(be, spec, outcome); }});
  return item;
}

void check_measure_values(const MeasureOptions& opt) {
  // The label goes into runs.csv, the JSON and the terminal, as the monitor's do.
  if (!opt.label.empty())
    if (const std::string why = label_problem(opt.label); !why.empty())
      throw UsageError("--label " + why);
}

int run_measure(const MeasureOptions& opt) {
  if (opt.command.empty()) throw UsageError("measure needs a command after --");
  if (opt.runs < 1) throw UsageError("--runs must be at least 1");
  if (opt.warmup < 0) throw UsageError("--warmup must not be negative");
  check_measure_values(opt);

  // Before the meter exists: its sampler thread must inherit the block.
  const SynchronousStops stops;
  // The same options, ranges and messages as a config's power: section.
  SessionOptions session_opt = opt.session;
  if (!opt.timeline_path.empty()) session_opt.power.timeline = true;
  Session session(session_opt, measure_option_name);
  session.throw_problems();  // a missing source or trace, an unknown or nested --total-rails
  session.stop_on(stop_signal);
  session.advise_short_windows("give the command more work (each run is one execution)");
  const Config cfg;  // the host device's backend reads nothing from it
  ProtocolHooks hooks(cfg);
  const bool metered = session.measures_energy();

  MeasureReport rep;
  rep.command = command_line(opt.command);
  rep.label = opt.label.empty() ? rep.command : opt.label;
  rep.source = session.meter().source_name();
  rep.rails = session.meter().rail_names();
  rep.total_rails = session.total_rails();
  rep.warmup = opt.warmup;
  rep.metered = metered;
  // Energy was asked for unless the source is `none`: a run without it is
  // then not a success (exit 1), and the summary says why.
  const bool energy_expected = opt.session.power.source != "none";
  // What discovery tried: with -v, or when it found nothing (then it says why).
  if (opt.verbose || !metered)
    for (const auto& l : session.meter().discovery_log())
      std::cerr << "edpbench: power: " << l << "\n";
  if (metered) {
    // "energy = VDD_IN (total_rails: auto)", then with -v how it was chosen.
    const std::string why = session.total_rails_why();
    const std::string first = why.substr(0, why.find('\n'));
    std::cerr << "edpbench: power: " << session.meter().source_name() << ", "
              << (first.empty() ? "energy = " + join(rep.total_rails, "+") : first) << "\n";
    if (opt.verbose && first.size() < why.size())
      for (size_t at = first.size() + 1; at < why.size();) {
        const size_t end = std::min(why.find('\n', at), why.size());
        std::cerr << "edpbench: power:   " << why.substr(at, end - at) << "\n";
        at = end + 1;
      }
    // An averaging monitor's lag can only be corrected once its period is
    // known: wait for a few of its updates (at most power.settle_s) before
    // the first run.
    bool known = true;
    try {
      known = session.settle();
    } catch (const Interrupted&) {  // the first run takes the stop
    }
    if (!known)
      std::cerr << "edpbench: warning: the sensor's update interval is still unknown after "
                << opt.session.power.settle_s
                << " s; the runs' energy is not lag-corrected and they are marked low "
                   "confidence\n";
    if (opt.session.power.baseline_s > 0)
      std::cerr << "edpbench: measuring idle power for " << opt.session.power.baseline_s << " s\n";
  }

  const std::string start_time = utc_now();
  std::unique_ptr<TimelineSink> timeline;
  if (!opt.timeline_path.empty()) {
    timeline = std::make_unique<TimelineSink>(opt.timeline_path, session_opt.power.timeline_hz,
                                              session_opt.power.timeline_max_rows, false,
                                              [](const std::string&) { return true; });
    timeline->log_to([](const std::string& line) { std::cerr << line << "\n"; });
    hooks.timeline = timeline.get();
  }
  auto write_outputs = [&] {
    rep.context = session.context();
    rep.context.start_time = start_time;
    rep.context.end_time = utc_now();
    rep.context.complete = !rep.interrupted;
    if (!opt.csv_path.empty()) write_file_atomic(opt.csv_path, measure_csv(rep));
    if (!opt.json_path.empty()) write_file_atomic(opt.json_path, measure_json(rep));
  };
  auto finish = [&](int code) {
    write_outputs();
    if (rep.interrupted)
      std::cerr << "edpbench: interrupted by "
                << (code == 128 + SIGINT    ? "SIGINT"
                    : code == 128 + SIGTERM ? "SIGTERM"
                                            : "SIGHUP")
                << "; " << rep.runs.size() << " complete run(s) kept\n";
    std::cerr << measure_summary(rep);
    for (const auto& w : measure_warnings(rep)) std::cerr << "edpbench: warning: " << w << "\n";
    if (code != 0 || !energy_expected || rep.runs.empty()) return code;
    // Times without the energy that was asked for are not a success.
    size_t missing = 0;
    for (const auto& r : rep.runs) missing += std::isnan(r.record.energy_j);
    if (!metered) {
      std::cerr << "edpbench: error: no power sensor was found, so no energy was measured (what "
                   "discovery tried is listed above); measure time only with --power-source "
                   "none, or replay a recorded trace with --trace FILE\n";
      return 1;
    }
    if (missing > 0) {
      std::cerr << "edpbench: error: " << missing << " of " << rep.runs.size()
                << " run(s) have no energy (the reason is above and in each run's note)\n";
      return 1;
    }
    return code;
  };

  // Each measured run is kept (and the files written) as soon as it ends, so
  // an interruption loses only the run in progress.
  auto outcome = std::make_shared<CommandOutcome>();
  hooks.on_run = [&](const report::PartRecord& part, const report::RunRecord& run) {
    rep.part = part;
    rep.runs.push_back(CommandRun{run, outcome->exit_status});
    if (timeline) timeline->commit();
    if (std::isnan(rep.baseline_w)) {
      const auto b = session.current_baseline("host");
      if (b) rep.baseline_w = b->total_w;
    }
    write_outputs();
    // A line per run as it ends, with the time the rest will take at the
    // pace so far (from the first run's start, cool-downs and tails included).
    const double first_start = rep.runs.front().record.start_monotonic_s;
    const double done = static_cast<double>(rep.runs.size());
    const double eta = std::isfinite(first_start) && first_start > 0
                           ? (power::now_s() - first_start) / done * (opt.runs - done)
                           : -1;
    std::cerr << measure_run_line(rep, rep.runs.back(), opt.runs, eta) << "\n";
  };
  const PlanItem item = command_item(opt, stops.old_mask(), holds_terminal(), outcome);
  try {
    run_protocol(session, hooks, item);
  } catch (const Interrupted& e) {
    rep.interrupted = true;
    return finish(128 + e.signal);
  } catch (const CommandNotStarted& e) {
    std::cerr << "edpbench: error: cannot run '" << opt.command[0] << "': " << e.what() << "\n";
    return 2;
  }
  if (const auto b = session.current_baseline("host")) {
    rep.baseline_w = b->total_w;
    if (std::isnan(rep.baseline_w))
      std::cerr << "edpbench: warning: no idle baseline for every total rail (reads failed); "
                   "dynamic energy stays empty\n";
  }
  if (outcome->exit_status != 0) {
    if (rep.runs.empty())
      std::cerr << "edpbench: warm-up run " << outcome->steps << " of " << rep.command
                << " failed (exit " << outcome->exit_status << ")\n";
    else
      std::cerr << "edpbench: run " << rep.runs.back().record.run << " of " << rep.command
                << " failed (exit " << outcome->exit_status << "); stopping\n";
    return finish(outcome->exit_status);
  }
  return finish(0);
}

}  // namespace edp::bench
