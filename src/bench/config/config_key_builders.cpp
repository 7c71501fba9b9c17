#include "bench/config/config_key_builders.h"

#include <algorithm>
#include <stdexcept>

namespace edp::bench {
namespace {

std::function<bool(const Config&)> has_study(const std::string& study) {
  return [study](const Config& c) {
    return std::find(c.studies.begin(), c.studies.end(), study) != c.studies.end();
  };
}

}  // namespace

void add_study_section(KeyTable& t, const std::string& study, std::string doc,
                       std::vector<ConfigKey> keys) {
  t.push_back(section_key(study, true, std::move(doc), has_study(study)));
  for (ConfigKey& k : keys) {
    if (k.section() != study)
      throw std::logic_error("config key " + k.path + " is not in the " + study + " section");
    k.path_label = true;
    t.push_back(std::move(k));
  }
}

}  // namespace edp::bench
