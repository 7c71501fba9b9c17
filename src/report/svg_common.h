// What the report's SVG charts share: coordinates written to a tenth of a
// pixel, and one font stack for every chart's text.
#pragma once

#include <string>

#include "common/text.h"

namespace edp::report::svg {

inline std::string num(double v) { return fmt("%.1f", v); }

inline constexpr const char* kFont = "DejaVu Sans, Helvetica, Arial, sans-serif";

}  // namespace edp::report::svg
