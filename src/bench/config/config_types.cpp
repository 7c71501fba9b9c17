#include "bench/config/config_types.h"

namespace edp::bench {

std::string Config::at(const std::string& path) const {
  const auto it = where.find(path);
  if (it != where.end()) return it->second;
  return source_path.empty() ? "(config)" : source_path;
}

}  // namespace edp::bench
