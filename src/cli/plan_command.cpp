// `edpbench plan`: validates a config, discovers the sensors and the
// platform as `run` would, and prints the plan and its estimated duration
// without measuring (bench::preview_config). Exit 0, or 2 with every problem.
#include <sys/stat.h>

#include <iostream>

#include "bench/config.h"
#include "bench/run_evidence.h"
#include "bench/sweep_preview.h"
#include "cli/command.h"
#include "cli/sweep_filters.h"
#include "common/atomic_file.h"
#include "common/errors.h"
#include "common/text.h"
#include "platform/machine_load.h"

namespace {

struct PlanArgs {
  std::string config, sysfs_root, json;
  bool no_calibrate = false;
  edp::cli::SweepFilters filters;
};

edp::cli::CommandRunner setup(CLI::App& sub) {
  auto a = std::make_shared<PlanArgs>();
  sub.add_option("--config", a->config, "YAML configuration (see configs/)")->required();
  a->filters.add_to(sub);
  sub.add_option("--sysfs-root", a->sysfs_root, "Re-root /sys, /proc and /dev (tests, containers)");
  sub.add_flag("--no-calibrate", a->no_calibrate,
               "Do not time a few steps per device (durations are then unknown)");
  sub.add_option("--json", a->json, "Also write the plan as JSON to this file");
  return [a] {
    // A --json that cannot be written is a usage error found before any work.
    if (!a->json.empty()) {
      const auto slash = a->json.find_last_of('/');
      const std::string dir = slash == std::string::npos ? "." : a->json.substr(0, slash + 1);
      struct stat st {};
      if (::stat(dir.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
        throw edp::UsageError("--json " + a->json + ": the directory '" + dir +
                              "' does not exist (create it or choose another path)");
      if (::stat(a->json.c_str(), &st) == 0 && !S_ISREG(st.st_mode))
        throw edp::UsageError("--json " + a->json + ": not a regular file");
    }
    // Every problem in one pass: the config's own and this machine's.
    edp::bench::Config cfg = edp::bench::load_config(a->config, /*keep_going=*/true);
    a->filters.apply(cfg);
    edp::bench::PreviewOptions opt;
    opt.calibrate = !a->no_calibrate && cfg.problems.empty();
    const edp::bench::SweepPreview sum = edp::bench::preview_config(cfg, a->sysfs_root, opt);
    if (!cfg.problems.empty()) {  // no plan of a config that is not the one written
      std::cerr << "edpbench: error: " << edp::join(sum.problems, "\n") << "\n";
      return 2;
    }
    std::cout << edp::bench::format_preview(sum) << std::flush;
    // A neighbour already busy now would be in every number (DESIGN §3).
    const std::string busy = edp::platform::busy_warning(edp::platform::sample_machine_load(
        edp::platform::SysfsRoot(a->sysfs_root), edp::bench::kLoadSampleS));
    if (!busy.empty()) std::cerr << "edpbench: warning: " << busy << "\n";
    if (!a->json.empty()) edp::write_file_atomic(a->json, edp::bench::preview_json(sum));
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
