// Sort by x (ties by y), then sweep: a point is on the front when its y is
// below every y seen so far, or it repeats the last front point exactly.
#include "report/pareto.h"

#include <algorithm>
#include <cmath>

namespace edp::report {

std::vector<size_t> pareto_front(const std::vector<XY>& points) {
  std::vector<size_t> order;
  for (size_t i = 0; i < points.size(); ++i)
    if (std::isfinite(points[i].x) && std::isfinite(points[i].y)) order.push_back(i);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    if (points[a].x != points[b].x) return points[a].x < points[b].x;
    return points[a].y < points[b].y;
  });
  std::vector<size_t> front;
  for (size_t i : order) {
    if (front.empty() || points[i].y < points[front.back()].y) {
      front.push_back(i);
    } else {
      const XY& last = points[front.back()];
      if (points[i].x == last.x && points[i].y == last.y) front.push_back(i);
    }
  }
  return front;
}

}  // namespace edp::report
