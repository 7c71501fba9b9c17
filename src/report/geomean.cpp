#include "report/geomean.h"

#include <cmath>

namespace edp::report {

std::optional<double> geometric_mean(const std::vector<double>& values) {
  if (values.empty()) return std::nullopt;
  double sum_log = 0;  // sum of logs: no overflow of a running product
  for (double v : values) {
    if (!std::isfinite(v) || !(v > 0)) return std::nullopt;
    sum_log += std::log(v);
  }
  return std::exp(sum_log / static_cast<double>(values.size()));
}

}  // namespace edp::report
