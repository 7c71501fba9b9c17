// The ops study's config section (DESIGN §9.1): its settings, held in the
// config's study sections (cfg.section<OpsConfig>()), and its keys, which
// the registry (studies.def) enters in the key table.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "bench/config/config_key.h"

namespace edp::bench {

// Operator microbenchmarks (seed 000). Sizes are working sets with a unit
// ("2MB", "1GB": binary units, as memory is counted) and GEMM orders.
struct OpsConfig {
  static constexpr const char* kStudy = "ops";  // its registry name and section
  std::vector<std::string> ops{"copy",    "add",  "mul",  "scalar",
                               "sigmoid", "tanh", "gemm", "fma_peak"};
  std::vector<std::string> bytes{"2MB", "16MB", "64MB"};
  std::vector<int64_t> gemm_n{256, 1024};
  bool cold = true;          // also the cache-flushed variant of the element-wise ops
  int steps = 20;            // steps per run block
  int runs = 5;              // at least this many runs
  int max_runs = 50;         // ... and at most this many
  double max_rel_ci = 0.01;  // stop once the time's 95% CI is within 1% of its mean
  double time_limit_s = 10;  // per item and variant
  double min_run_s = 0.25;   // a window at least this long (and power.min_run_s)
};

// An ops.bytes working set: "16MB" -> 16777216; throws UsageError naming the
// valid units.
int64_t parse_bytes(const std::string& text);

// Appends the `ops` section and its keys (ops_config.cpp).
void add_ops_config_keys(KeyTable& t);

}  // namespace edp::bench
