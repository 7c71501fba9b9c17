// Tolerance helpers for comparing float32 results against a double-accumulating
// oracle. A dot product of length K in float32 has a worst-case relative error
// of about K * eps * sum|a_i b_i| / |sum a_i b_i| (Higham, "Accuracy and
// Stability of Numerical Algorithms", §3.1); blocked GEMMs do much better, so
// the bound used here is sqrt(K) * eps * sum|a_i b_i| with a safety factor.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace edp::testing {

constexpr double kFloatEps = std::numeric_limits<float>::epsilon();

// Largest |a[i] - b[i]| / (atol + rtol * |b[i]|); <= 1 means "within".
inline double worst_ratio(const std::vector<float>& a, const std::vector<float>& b, double rtol,
                          double atol) {
  double worst = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    const double d = std::fabs(double(a[i]) - double(b[i]));
    worst = std::max(worst, d / (atol + rtol * std::fabs(double(b[i]))));
    if (std::isnan(a[i]) != std::isnan(b[i])) return std::numeric_limits<double>::infinity();
  }
  return worst;
}

}  // namespace edp::testing
