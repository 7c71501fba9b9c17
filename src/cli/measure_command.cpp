// `edpbench measure [options] -- COMMAND [ARGS...]`: parses the arguments and
// hands over to bench::run_measure (DESIGN §6).
#include <memory>

#include "bench/measure/measure.h"
#include "cli/command.h"
#include "cli/power_options.h"

namespace edp::cli::measure_command {
namespace {

edp::cli::CommandRunner setup(CLI::App& sub) {
  auto o = std::make_shared<edp::bench::MeasureOptions>();
  sub.add_option("--runs", o->runs, "Number of measured runs (default 1)")
      ->type_name("N")
      ->check(CLI::Range(1, 100000000));
  sub.add_option("--warmup", o->warmup, "Runs before the measured ones, not recorded (default 0)")
      ->type_name("N")
      ->check(CLI::Range(0, 100000000));
  auto power = std::make_shared<edp::cli::PowerFlags>();
  power->add_to(sub);
  sub.add_option("--baseline-s", o->session.power.baseline_s,
                 "Measure idle power for S seconds first and report dynamic energy (default 0)")
      ->type_name("S");
  sub.add_option("--cooldown-s", o->session.cooldown_s,
                 "Pause before every measured run (default 0)")
      ->type_name("S");
  sub.add_option("--csv", o->csv_path, "Write one row per run to FILE")->type_name("FILE");
  sub.add_option("--json", o->json_path, "Write the runs and the summary to FILE")
      ->type_name("FILE");
  sub.add_option("--timeline", o->timeline_path,
                 "Write every run's power over time to FILE (samples.csv columns)")
      ->type_name("FILE");
  sub.add_option("--timeline-hz", o->session.power.timeline_hz,
                 "Points a second kept of the power over time (default 20)")
      ->type_name("HZ");
  sub.add_option("--label", o->label, "Label of the rows (default: the command line)")
      ->type_name("NAME");
  sub.add_option("command", o->command, "The command to measure, after --")
      ->required()
      ->type_name("COMMAND [ARGS...]");
  sub.positionals_at_end();
  sub.footer("Example: edpbench measure --runs 5 --csv runs.csv -- python3 train.py --epochs 1");
  return [o, power] {
    edp::bench::MeasureOptions opt = *o;
    power->apply(opt.session);
    opt.verbose = power->verbose();
    return edp::bench::run_measure(opt);
  };
}

const edp::cli::CommandRegistration reg(
    25, "measure", "Measure the time, energy and EDP of any command, like perf stat", setup);

}  // namespace

}  // namespace edp::cli::measure_command
