// The options that narrow a config's sweep, shared by `run` and `plan` so
// that `plan` takes exactly the filters `run` does (DESIGN §6).
#pragma once

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

#include "bench/studies/config_schema.h"
#include "common/text.h"

namespace edp::cli {

struct SweepFilters {
  std::vector<std::string> studies, workloads, sizes, devices;
  int runs = 0, iterations = 0;

  void add_to(CLI::App& sub) {
    sub.add_option("--studies", studies,
                   "Only these studies (" + join(bench::known_studies(), ",") + ")")
        ->delimiter(',');
    sub.add_option("--workloads", workloads, "Only these workloads (tensors,autograd,custom_relu)")
        ->delimiter(',');
    sub.add_option("--sizes", sizes, "Only these sizes (e.g. small,medium)")->delimiter(',');
    sub.add_option("--devices", devices, "Only these devices (cpu,gpu,reference)")->delimiter(',');
    sub.add_option("--runs", runs, "Override the number of runs")->check(CLI::Range(1, 100000000));
    sub.add_option("--iterations", iterations, "Override iterations per run")
        ->check(CLI::Range(1, 100000000));
  }
  // Throws UsageError for names the config lacks (bench::apply_filters).
  void apply(bench::Config& cfg) const {
    bench::apply_filters(cfg, workloads, sizes, devices, runs, iterations, studies);
  }
};

}  // namespace edp::cli
