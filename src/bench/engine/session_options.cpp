// A session's options, checked by the config's key table (see session_options.h).
#include "bench/engine/session_options.h"

#include "bench/config/config_keys.h"
#include "common/errors.h"

namespace edp::bench {

SessionOptions session_options(const Config& c, const std::string& sysfs_root) {
  SessionOptions o;
  o.power = c.power;
  o.sysfs_root = sysfs_root;
  o.cooldown_s = c.cooldown_s;
  o.max_start_temp_c = c.max_start_temp_c;
  return o;
}

const std::vector<std::string>& session_option_keys() {
  static const std::vector<std::string> keys = [] {
    std::vector<std::string> out;
    for (const auto& k : core_config_schema().keys)
      if (k.type != KeyType::section && (k.path.rfind("power.", 0) == 0 || k.path == "cooldown_s" ||
                                         k.path == "max_start_temp_c"))
        out.push_back(k.path);
    return out;
  }();
  return keys;
}

std::vector<std::string> session_option_problems(const SessionOptions& o, const OptionNamer& name) {
  Config c;
  c.power = o.power;
  c.cooldown_s = o.cooldown_s;
  c.max_start_temp_c = o.max_start_temp_c;
  return config_value_problems(core_config_schema(), c, session_option_keys(), name);
}

void validate_session_options(const SessionOptions& o, const OptionNamer& name) {
  const std::vector<std::string> problems = session_option_problems(o, name);
  if (problems.empty()) return;
  std::string all;
  for (const auto& p : problems) all += (all.empty() ? "" : "\n") + p;
  throw UsageError(all);
}

}  // namespace edp::bench
