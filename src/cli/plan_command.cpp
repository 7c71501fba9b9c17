// `edpbench plan`: validates a config, discovers the sensors and the
// platform as `run` would, and prints the plan and its estimated duration
// without measuring (bench::plan_config). Exit 0, or 2 with every problem.
#include <iostream>

#include "bench/config.h"
#include "bench/plan_summary.h"
#include "cli/command.h"
#include "common/atomic_file.h"

namespace {

struct PlanArgs {
  std::string config, sysfs_root, json;
  bool no_calibrate = false;
  std::vector<std::string> workloads, sizes, devices, studies;
  int runs = 0, iterations = 0;
};

edp::cli::CommandRunner setup(CLI::App& sub) {
  auto a = std::make_shared<PlanArgs>();
  sub.add_option("--config", a->config, "YAML configuration (see configs/)")->required();
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
  sub.add_flag("--no-calibrate", a->no_calibrate,
               "Do not time a few steps per device (durations are then unknown)");
  sub.add_option("--json", a->json, "Also write the plan as JSON to this file");
  return [a] {
    edp::bench::Config cfg = edp::bench::load_config(a->config);
    edp::bench::apply_filters(cfg, a->workloads, a->sizes, a->devices, a->runs, a->iterations,
                              a->studies);
    edp::bench::PlanOptions opt;
    opt.calibrate = !a->no_calibrate;
    const edp::bench::PlanSummary sum = edp::bench::plan_config(cfg, a->sysfs_root, opt);
    std::cout << edp::bench::format_plan(sum) << std::flush;
    if (!a->json.empty()) edp::write_file_atomic(a->json, edp::bench::plan_json(sum));
    if (sum.problems.empty()) return 0;
    std::cerr << "edpbench: error: the config cannot run on this machine (" << sum.problems.size()
              << " problem" << (sum.problems.size() == 1 ? "" : "s") << "):\n";
    for (const auto& p : sum.problems) std::cerr << "  - " << p << "\n";
    return 2;
  };
}

const edp::cli::CommandRegistration reg(
    15, "plan", "Check a config on this machine and print its plan and duration, measuring nothing",
    setup);

}  // namespace
