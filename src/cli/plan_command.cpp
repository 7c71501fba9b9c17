// `edpbench plan`: validates a config, discovers the sensors and the
// platform as `run` would, and prints the plan and its estimated duration
// without measuring (bench::preview_config). Exit 0, or 2 with every problem.
#include <sys/stat.h>

#include <iostream>

#include "bench/engine/run_evidence.h"
#include "bench/studies/config_schema.h"
#include "bench/sweep/sweep_preview.h"
#include "cli/command.h"
#include "cli/power_options.h"
#include "cli/sweep_filters.h"
#include "common/atomic_file.h"
#include "common/errors.h"
#include "common/text.h"
#include "platform/machine_load.h"

namespace edp::cli::plan_command {
namespace {

struct PlanArgs {
  std::string config, json;
  bool no_calibrate = false;
  edp::cli::SweepFilters filters;
  edp::cli::PowerFlags power;
};

edp::cli::CommandRunner setup(CLI::App& sub) {
  auto a = std::make_shared<PlanArgs>();
  sub.add_option("--config", a->config, "YAML configuration (see configs/)")->required();
  a->filters.add_to(sub);
  a->power.add_to(sub);
  sub.add_flag("--no-calibrate", a->no_calibrate,
               "Do not time a few steps per device (durations are then unknown)");
  sub.add_option("--json", a->json, "Also write the plan as JSON to this file");
  return [a] {
    // A --json that cannot be written is a usage error found before any work.
    if (!a->json.empty()) edp::cli::check_output_file("--json", a->json);
    // Every problem in one pass: the config's own and this machine's.
    edp::bench::Config cfg = edp::bench::load_config(a->config, /*keep_going=*/true);
    a->filters.apply(cfg);
    a->power.apply(cfg);
    edp::bench::PreviewOptions opt;
    opt.calibrate = !a->no_calibrate && cfg.problems.empty();
    const edp::bench::SweepPreview sum =
        edp::bench::preview_config(cfg, a->power.sysfs_root(), opt);
    if (!cfg.problems.empty()) {  // no plan of a config that is not the one written
      std::cerr << "edpbench: error: " << edp::terminal_text(edp::join(sum.problems, "\n"), true)
                << "\n";
      return 2;
    }
    std::cout << edp::bench::format_preview(sum, a->power.verbose()) << std::flush;
    // A neighbour already busy now would be in every number (DESIGN §3).
    const std::string busy = edp::platform::busy_warning(edp::platform::sample_machine_load(
        edp::platform::SysfsRoot(a->power.sysfs_root()), edp::bench::kLoadSampleS));
    if (!busy.empty()) std::cerr << "edpbench: warning: " << busy << "\n";
    if (!a->json.empty()) edp::write_file_atomic(a->json, edp::bench::preview_json(sum));
    if (sum.problems.empty()) return 0;
    std::cerr << "edpbench: error: the config cannot run on this machine (" << sum.problems.size()
              << " problem" << (sum.problems.size() == 1 ? "" : "s") << "):\n";
    for (const auto& p : sum.problems) std::cerr << "  - " << edp::terminal_text(p) << "\n";
    return 2;
  };
}

const edp::cli::CommandRegistration reg(
    15, "plan", "Check a config on this machine and print its plan and duration, measuring nothing",
    setup);

}  // namespace

}  // namespace edp::cli::plan_command
