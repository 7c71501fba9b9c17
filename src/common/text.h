// The one number formatter and the one join of the code base (issue 22.6):
// fmt takes the printf format first, as snprintf does ("%.3g s", 1.5).
#pragma once

#include <string>
#include <vector>

namespace edp {

// One number through a printf format with one conversion ("%.4g", "%.1f W").
std::string fmt(const char* format, double v);

// The items with `sep` between each two.
std::string join(const std::vector<std::string>& items, const std::string& sep = ", ");

}  // namespace edp
