// `edpbench run`: parses arguments and hands over to bench::run_sweep.
#include "bench/config.h"
#include "bench/runner.h"
#include "bench/signals.h"
#include "cli/command.h"
#include "cli/sweep_filters.h"

#include <iostream>

namespace {

struct RunArgs {
  std::string config, out, sysfs_root;
  bool resume = false;
  edp::cli::SweepFilters filters;
};

edp::cli::CommandRunner setup(CLI::App& sub) {
  auto a = std::make_shared<RunArgs>();
  sub.add_option("--config", a->config, "YAML configuration (see configs/)")->required();
  sub.add_option("--out", a->out, "Output directory (default: output.dir of the config)");
  sub.add_flag("--resume", a->resume,
               "Continue the sweep in --out, skipping finished configurations");
  a->filters.add_to(sub);
  sub.add_option("--sysfs-root", a->sysfs_root, "Re-root /sys, /proc and /dev (tests, containers)");
  return [a] {
    // First: a SIGTERM/SIGHUP/SIGPIPE from here on takes the save-and-restore
    // path (exit 128 + signal), however early it comes.
    edp::bench::install_stop_handlers();
    try {
      // Every problem in one pass: the config's own and this machine's.
      edp::bench::Config cfg = edp::bench::load_config(a->config, /*keep_going=*/true);
      a->filters.apply(cfg);
      edp::bench::RunOptions opt;
      opt.out_dir = a->out.empty() ? cfg.output_dir : a->out;
      opt.resume = a->resume;
      opt.sysfs_root = a->sysfs_root;
      return edp::bench::run_sweep(cfg, opt);
    } catch (...) {
      // A signal that cut a read short (a config on a FIFO, a slow disk) is
      // the reason, not the error it caused.
      if (const int sig = edp::bench::stop_signal()) {
        std::cerr << "edpbench: interrupted by signal " << sig << " before the sweep started\n";
        return 128 + sig;
      }
      throw;
    }
  };
}

const edp::cli::CommandRegistration reg(10, "run",
                                        "Run the sweep of a config and write CSV results", setup);

}  // namespace
