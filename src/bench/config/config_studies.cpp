// The study registry's config side (studies.def): every study's name and the
// function that enters its config section in the key table. The studies
// themselves (plan items, rows, views) are made in studies/registry.cpp from the same
// lines.
#include "bench/config/config_keys.h"
#include "bench/config/config_types.h"

namespace edp::bench {
namespace {

struct StudyConfig {
  const char* name;
  void (*add_keys)(KeyTable&);  // null: the study has no section
};

const std::vector<StudyConfig>& study_configs() {
  static const std::vector<StudyConfig> all{
#define EDP_STUDY(name, maker) {#name, nullptr},
#define EDP_STUDY_WITH_CONFIG(name, maker, add_keys) {#name, add_keys},
#include "bench/config/studies.def"
  };
  return all;
}

}  // namespace

const std::vector<std::string>& known_studies() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const auto& s : study_configs()) out.push_back(s.name);
    return out;
  }();
  return names;
}

void add_study_config_keys(KeyTable& t) {
  for (const auto& s : study_configs())
    if (s.add_keys) s.add_keys(t);
}

}  // namespace edp::bench
