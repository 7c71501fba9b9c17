// The batch study's config section (DESIGN §9.2): its settings, held in
// Config::batch, and its keys in the config's key table (config_keys.h).
// Its own header so that config.h holds it without the study's machinery.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace edp::bench {

struct ConfigKey;

// The MLP programs with N swept on the layer shapes of named sizes.
struct BatchConfig {
  std::vector<std::string> sizes{"medium"};
  std::vector<int64_t> n{1, 2, 4, 8, 16, 32, 64, 128, 256, 512};
};

// Appends the `batch` section and its keys (batch_config.cpp).
void add_batch_config_keys(std::vector<ConfigKey>& t);

}  // namespace edp::bench
