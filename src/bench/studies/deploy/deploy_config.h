// The deploy study's config section (DESIGN §9.4, docs/deploy.md): its
// settings, held in the config's study sections (cfg.section<DeployConfig>()),
// and its keys, which the registry (studies.def) enters in the key table.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "bench/config/config_key.h"

namespace edp::bench {

struct DeployConfig {
  static constexpr const char* kStudy = "deploy";  // its registry name and section
  // The sizes whose layer shapes are deployed (names from `sizes`).
  std::vector<std::string> sizes{"small", "medium", "large"};
  // train: a training step of each program in `workloads`; infer: the
  // forward pass alone, at each of `batches`.
  std::vector<std::string> modes{"train", "infer"};
  std::vector<int64_t> batches{1, 4, 16, 64};
  // The idle gaps (s) after which the first burst's wake cost is measured.
  std::vector<double> wake_after_s{0.1, 1, 10};
  int wake_repeats = 5;  // cycles per gap
  double idle_s = 2;     // idle power per state, in total over its windows
  int bursts = 100;      // inference bursts timed one by one (p50/p90/p99)
  int train_bursts = 20;
  // Also measure cold starts (the device's context released between
  // bursts, a new backend per burst), for the model's `release` policy.
  bool release = true;
  // Open-loop checks of the model (docs/deploy.md): each item served at
  // each rate for check_s; none by default.
  std::vector<double> check_rates_hz;
  double check_s = 60;
  std::string arrivals = "poisson";  // poisson | periodic, for the checks
};

// Appends the `deploy` section and its keys (deploy_config.cpp).
void add_deploy_config_keys(KeyTable& t);

}  // namespace edp::bench
