#include "report/stats.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace edp::report {

double mean(const std::vector<double>& v) {
  if (v.empty()) return std::numeric_limits<double>::quiet_NaN();
  return std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
}

double stddev(const std::vector<double>& v) {
  if (v.empty()) return std::numeric_limits<double>::quiet_NaN();
  if (v.size() < 2) return 0.0;
  const double m = mean(v);
  double ss = 0;
  for (double x : v) ss += (x - m) * (x - m);
  return std::sqrt(ss / static_cast<double>(v.size() - 1));
}

double quantile(std::vector<double> v, double q) {
  if (v.empty()) return NAN;
  std::sort(v.begin(), v.end());
  const double at = (static_cast<double>(v.size()) - 1) * std::min(1.0, std::max(0.0, q));
  const size_t lo = static_cast<size_t>(at);
  const size_t hi = std::min(lo + 1, v.size() - 1);
  return v[lo] + (at - static_cast<double>(lo)) * (v[hi] - v[lo]);
}

double median(std::vector<double> v) {
  if (v.empty()) return std::numeric_limits<double>::quiet_NaN();
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

double student_t975(int dof) {
  // t_{0.975, dof}, from the standard table (e.g. NIST/SEMATECH e-Handbook
  // 1.3.6.7.2); beyond 30 the Cornish-Fisher expansion around z = 1.959964
  // is accurate to better than 1e-4.
  static const double table[] = {0,     12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365,
                                 2.306, 2.262,  2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
                                 2.120, 2.110,  2.101, 2.093, 2.086, 2.080, 2.074, 2.069,
                                 2.064, 2.060,  2.056, 2.052, 2.048, 2.045, 2.042};
  if (dof < 1) return std::numeric_limits<double>::quiet_NaN();
  if (dof <= 30) return table[dof];
  const double z = 1.959964, z3 = z * z * z, z5 = z3 * z * z, n = dof;
  return z + (z3 + z) / (4 * n) + (5 * z5 + 16 * z3 + 3 * z) / (96 * n * n);
}

double ci95_half_width(const std::vector<double>& v) {
  if (v.empty()) return std::numeric_limits<double>::quiet_NaN();
  if (v.size() < 2) return 0.0;
  const int dof = static_cast<int>(v.size()) - 1;
  return student_t975(dof) * stddev(v) / std::sqrt(static_cast<double>(v.size()));
}

Summary summarize(const std::vector<double>& v) {
  Summary s;
  s.n = static_cast<int>(v.size());
  s.mean = mean(v);
  s.std = stddev(v);
  s.ci95 = ci95_half_width(v);
  s.median = median(v);
  if (v.empty()) {
    s.min = s.max = std::numeric_limits<double>::quiet_NaN();
  } else {
    const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
    s.min = *lo;
    s.max = *hi;
  }
  return s;
}

}  // namespace edp::report
