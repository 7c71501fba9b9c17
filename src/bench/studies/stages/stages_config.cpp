// The stages study's keys (see stages_config.h).
#include "bench/studies/stages/stages_config.h"

#include "bench/config/config_compound.h"
#include "bench/config/config_key_builders.h"

namespace edp::bench {

void add_stages_config_keys(KeyTable& t) {
  std::vector<ConfigKey> keys;
  keys.push_back(size_names_key("stages.sizes", "Sizes profiled", &StagesConfig::sizes));
  add_study_section(t, "stages", "The stages study (DESIGN §9.3)", std::move(keys));
}

}  // namespace edp::bench
