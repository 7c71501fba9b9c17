// The sweep runner: the measurement protocol of DESIGN §3 over the plan
// workloads x sizes x devices, with resume, signals and progress.
#pragma once

#include <string>

#include "bench/config/config.h"

namespace edp::bench {

struct RunOptions {
  std::string out_dir;
  bool resume = false;
  std::string sysfs_root;  // re-roots /sys, /proc and /dev for sensors and the probe
  // --prometheus-textfile DIR: DIR/edpbench.prom, rewritten atomically after
  // every item, for node_exporter's textfile collector ("" none).
  std::string prometheus_textfile_dir;
  bool verbose = false;  // show the sensors' discovery log (shown anyway when none is found)
};

// Returns the process exit code: 0 when at least one configuration was
// measured, 1 when none could be, 128+signal when interrupted (after saving).
int run_sweep(const Config& config, const RunOptions& options);

}  // namespace edp::bench
