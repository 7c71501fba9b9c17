// The stages study's keys (see study_stages_config.h).
#include "bench/config/stages_config.h"

#include "bench/config/config_compound.h"
#include "bench/config/config_key_builders.h"

namespace edp::bench {

void add_stages_config_keys(KeyTable& t) {
  std::vector<ConfigKey> keys;
  keys.push_back(custom_key(
      "stages.sizes", "Sizes profiled",
      [](ConfigReader& r, const YAML::Node& n, Config& c) {
        c.stages.sizes = read_size_names(r, n, "stages.sizes", c);
      },
      [](YAML::Emitter& e, const Config& c) { e << YAML::Flow << c.stages.sizes; }));
  add_study_section(t, "stages", "The stages study (DESIGN §9.3)", std::move(keys));
}

}  // namespace edp::bench
