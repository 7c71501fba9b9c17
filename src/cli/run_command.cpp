// `edpbench run`: parses arguments and hands over to bench::run_sweep.
#include "bench/config.h"
#include "bench/runner.h"
#include "cli/command.h"

namespace {

struct RunArgs {
  std::string config, out, sysfs_root;
  bool resume = false;
  std::vector<std::string> workloads, sizes, devices, studies;
  int runs = 0, iterations = 0;
};

edp::cli::CommandRunner setup(CLI::App& sub) {
  auto a = std::make_shared<RunArgs>();
  sub.add_option("--config", a->config, "YAML configuration (see configs/)")->required();
  sub.add_option("--out", a->out, "Output directory (default: output.dir of the config)");
  sub.add_flag("--resume", a->resume,
               "Continue the sweep in --out, skipping finished configurations");
  sub.add_option("--studies", a->studies, "Only these studies (mlp,batch,stages,ops)")
      ->delimiter(',');
  sub.add_option("--workloads", a->workloads, "Only these workloads (tensors,autograd,custom_relu)")
      ->delimiter(',');
  sub.add_option("--sizes", a->sizes, "Only these sizes (e.g. small,medium)")->delimiter(',');
  sub.add_option("--devices", a->devices, "Only these devices (cpu,gpu,reference)")->delimiter(',');
  sub.add_option("--runs", a->runs, "Override the number of runs")->check(CLI::Range(1, 100000000));
  sub.add_option("--iterations", a->iterations, "Override iterations per run")
      ->check(CLI::Range(1, 100000000));
  sub.add_option("--sysfs-root", a->sysfs_root, "Re-root /sys, /proc and /dev (tests, containers)");
  return [a] {
    edp::bench::Config cfg = edp::bench::load_config(a->config);
    edp::bench::apply_filters(cfg, a->workloads, a->sizes, a->devices, a->runs, a->iterations,
                              a->studies);
    edp::bench::RunOptions opt;
    opt.out_dir = a->out.empty() ? cfg.output_dir : a->out;
    opt.resume = a->resume;
    opt.sysfs_root = a->sysfs_root;
    return edp::bench::run_sweep(cfg, opt);
  };
}

const edp::cli::CommandRegistration reg(10, "run",
                                        "Run the sweep of a config and write CSV results", setup);

}  // namespace
