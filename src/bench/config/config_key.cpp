#include "bench/config/config_key.h"

namespace edp::bench {

std::string ConfigKey::section() const {
  const auto dot = path.rfind('.');
  return dot == std::string::npos ? "" : path.substr(0, dot);
}

std::string ConfigKey::name() const {
  const auto dot = path.rfind('.');
  return dot == std::string::npos ? path : path.substr(dot + 1);
}

std::string ConfigKey::label() const { return path_label ? path : name(); }

}  // namespace edp::bench
