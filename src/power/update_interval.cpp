// Robust update interval (see update_interval.h).
#include "power/update_interval.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace edp::power {

double robust_update_interval(const double* times, size_t n) {
  if (n < 3) return 0;
  std::vector<double> gaps;
  gaps.reserve(n - 1);
  for (size_t i = 1; i < n; ++i)
    if (times[i] > times[i - 1]) gaps.push_back(times[i] - times[i - 1]);
  if (gaps.size() < 2) return 0;
  std::vector<double> sorted = gaps;
  const size_t mid = sorted.size() / 2;
  std::nth_element(sorted.begin(), sorted.begin() + static_cast<long>(mid), sorted.end());
  double median = sorted[mid];
  if (sorted.size() % 2 == 0) {
    // Lower of the two middle gaps: with many hidden updates the upper one
    // may already be a double gap.
    median = *std::max_element(sorted.begin(), sorted.begin() + static_cast<long>(mid));
  }
  if (!(median > 0)) return 0;
  double total = 0, updates = 0;
  for (double g : gaps) {
    total += g;
    updates += std::max(1.0, std::round(g / median));
  }
  return total / updates;
}

}  // namespace edp::power
