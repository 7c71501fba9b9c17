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
  // The reference single-update gap: the lower quartile, not the median, so
  // that it stays a single update while up to ~3/4 of the updates are hidden
  // (repeated values); jitter below a third of T still rounds right.
  std::vector<double> sorted = gaps;
  std::sort(sorted.begin(), sorted.end());
  const double median = sorted[(sorted.size() - 1) / 4];
  if (!(median > 0)) return 0;
  double total = 0, updates = 0;
  for (double g : gaps) {
    total += g;
    updates += std::max(1.0, std::round(g / median));
  }
  return total / updates;
}

}  // namespace edp::power
