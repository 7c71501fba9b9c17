// The stages study's config section (DESIGN §9.3): its settings, held in the
// config's study sections (cfg.section<StagesConfig>()), and its keys, which
// the registry (studies.def) enters in the key table.
#pragma once

#include <string>
#include <vector>

#include "bench/config/config_key.h"

namespace edp::bench {

// forward, forward_backward and step of each program, at these sizes.
struct StagesConfig {
  static constexpr const char* kStudy = "stages";  // its registry name and section
  std::vector<std::string> sizes{"small", "medium", "large"};
};

// Appends the `stages` section and its keys (stages_config.cpp).
void add_stages_config_keys(KeyTable& t);

}  // namespace edp::bench
