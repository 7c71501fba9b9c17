// The stages study's config section (DESIGN §9.3): its settings, held in
// Config::stages, and its keys in the config's key table (config_keys.h).
// Its own header so that config.h holds it without the study's machinery.
#pragma once

#include <string>
#include <vector>

namespace edp::bench {

struct ConfigKey;

// forward, forward_backward and step of each program, at these sizes.
struct StagesConfig {
  std::vector<std::string> sizes{"small", "medium", "large"};
};

// Appends the `stages` section and its keys (stages_config.cpp).
void add_stages_config_keys(std::vector<ConfigKey>& t);

}  // namespace edp::bench
