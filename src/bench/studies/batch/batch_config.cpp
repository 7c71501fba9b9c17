// The batch study's keys (see batch_config.h).
#include "bench/studies/batch/batch_config.h"

#include "bench/config/config_compound.h"
#include "bench/config/config_key_builders.h"

namespace edp::bench {

void add_batch_config_keys(KeyTable& t) {
  std::vector<ConfigKey> keys;
  keys.push_back(
      size_names_key("batch.sizes", "Sizes whose layer shapes are swept", &BatchConfig::sizes));
  keys.push_back(
      integer_list_key("batch.n", 1, 1 << 20, "Batch sizes", section_member(&BatchConfig::n)));
  add_study_section(t, "batch", "The batch study (DESIGN §9.2)", std::move(keys));
}

}  // namespace edp::bench
