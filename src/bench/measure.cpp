// `edpbench measure -- CMD` (see measure.h): a session and one plan item,
// measured by the protocol.
#include "bench/measure.h"

#include <signal.h>

#include <cmath>
#include <iostream>
#include <map>

#include "bench/measure_report.h"
#include "bench/protocol.h"
#include "bench/signals.h"
#include "bench/sweep.h"
#include "common/atomic_file.h"
#include "common/errors.h"
#include "common/text.h"
#include "platform/platform.h"

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
      {"power.baseline_s", "--baseline-s"},   {"cooldown_s", "--cooldown-s"}};
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
  Session session(opt.session, measure_option_name);
  session.throw_problems();  // a missing source or trace, an unknown or nested --total-rails
  session.stop_on(stop_signal);
  const Config cfg;  // the host device's backend reads nothing from it
  Sweep s(cfg, session);
  const bool metered = session.measures_energy();

  MeasureReport rep;
  rep.command = command_line(opt.command);
  rep.label = opt.label.empty() ? rep.command : opt.label;
  rep.source = session.meter().source_name();
  rep.rails = session.meter().rail_names();
  rep.total_rails = session.total_rails();
  rep.warmup = opt.warmup;
  for (const auto& l : session.meter().discovery_log())
    std::cerr << "edpbench: power: " << l << "\n";
  if (metered) {
    std::cerr << "edpbench: power: energy = " << join(rep.total_rails, "+") << ": "
              << session.total_rails_why() << "\n";
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
    std::cerr << measure_summary(rep, metered);
    for (const auto& w : measure_warnings(rep, metered))
      std::cerr << "edpbench: warning: " << w << "\n";
    return code;
  };

  // Each measured run is kept (and the files written) as soon as it ends, so
  // an interruption loses only the run in progress.
  auto outcome = std::make_shared<CommandOutcome>();
  s.on_run = [&](const report::PartRecord& part, const report::RunRecord& run) {
    rep.part = part;
    rep.runs.push_back(CommandRun{run, outcome->exit_status});
    if (std::isnan(rep.baseline_w)) {
      const auto b = session.current_baseline("host");
      if (b) rep.baseline_w = b->total_w;
    }
    write_outputs();
  };
  const PlanItem item = command_item(opt, stops.old_mask(), holds_terminal(), outcome);
  try {
    measure_item(s, item);
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
