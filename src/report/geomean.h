// The geometric mean, for summary lines over configurations whose values span
// decades (benchstat's "geomean" row): exp(mean(log v)). Pure function.
#pragma once

#include <optional>
#include <vector>

namespace edp::report {

// nullopt when `values` is empty or holds a value that is not finite and > 0.
std::optional<double> geometric_mean(const std::vector<double>& values);

}  // namespace edp::report
