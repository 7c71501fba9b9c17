// The study registry's config side: every study's name and the function
// that enters its config section in the key table, listed by hand in the
// order of DESIGN §9 (no self-registering statics to lose in a static
// library). The studies themselves (plan items, rows) are made in
// studies.cpp, matched to these names by Study::name(). Adding a study adds
// a line here and one there; its section lives in its own files.
#include "bench/config.h"
#include "bench/config_keys.h"

namespace edp::bench {
namespace {

struct StudyConfig {
  const char* name;
  void (*add_keys)(KeyTable&);  // null: the study has no section
};

const std::vector<StudyConfig>& study_configs() {
  static const std::vector<StudyConfig> all{
      {"mlp", nullptr},  // the top-level keys (sizes, workloads, ...)
      {"batch", add_batch_config_keys},
      {"stages", add_stages_config_keys},
      {"ops", add_ops_config_keys},
      {"deploy", add_deploy_config_keys},
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
