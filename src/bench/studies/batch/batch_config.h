// The batch study's config section (DESIGN §9.2): its settings, held in the
// config's study sections (cfg.section<BatchConfig>()), and its keys, which
// the registry (studies.def) enters in the key table.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "bench/config/config_key.h"

namespace edp::bench {

// The MLP programs with N swept on the layer shapes of named sizes.
struct BatchConfig {
  static constexpr const char* kStudy = "batch";  // its registry name and section
  std::vector<std::string> sizes{"medium"};
  std::vector<int64_t> n{1, 2, 4, 8, 16, 32, 64, 128, 256, 512};
};

// Appends the `batch` section and its keys (batch_config.cpp).
void add_batch_config_keys(KeyTable& t);

}  // namespace edp::bench
