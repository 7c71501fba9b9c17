// The Pareto front of points to be minimised on both axes (time and energy of
// each (device, operating point)): the points no other point beats on one axis
// without losing on the other. Pure; used by the report's operating-point plot.
#pragma once

#include <cstddef>
#include <vector>

namespace edp::report {

struct XY {
  double x = 0, y = 0;
};

// Indices of the non-dominated points, ordered by x ascending (then y). A point
// is dominated when another has x and y no larger and at least one smaller.
// Identical points are all kept; points with a NaN or infinite coordinate are
// never on the front and never dominate.
std::vector<size_t> pareto_front(const std::vector<XY>& points);

}  // namespace edp::report
