// The Pareto front on hand-placed points with the answer worked out by hand.
#include <catch2/catch.hpp>
#include <cmath>

#include "report/pareto.h"

using edp::report::pareto_front;
using edp::report::XY;
using Indices = std::vector<size_t>;

TEST_CASE("pareto: dominated points are left out, the front is ordered by x", "[pareto]") {
  // (time, energy): 0 fastest, 2 most frugal, 1 between them; 3 is beaten by 1
  // on both axes, 4 by 0 on energy at the same time.
  const std::vector<XY> pts{{1.0, 10.0}, {2.0, 6.0}, {4.0, 5.0}, {3.0, 7.0}, {1.0, 12.0}};
  CHECK(pareto_front(pts) == Indices{0, 1, 2});
}

TEST_CASE("pareto: input order does not matter", "[pareto]") {
  const std::vector<XY> pts{{4.0, 5.0}, {3.0, 7.0}, {1.0, 10.0}, {2.0, 6.0}};
  CHECK(pareto_front(pts) == Indices{2, 3, 0});
}

TEST_CASE("pareto: one point that beats all others is the whole front", "[pareto]") {
  const std::vector<XY> pts{{2.0, 2.0}, {1.0, 1.0}, {3.0, 1.5}};
  CHECK(pareto_front(pts) == Indices{1});
}

TEST_CASE("pareto: equal y at larger x is dominated, identical points are both kept", "[pareto]") {
  CHECK(pareto_front({{1.0, 5.0}, {2.0, 5.0}}) == Indices{0});
  CHECK(pareto_front({{1.0, 5.0}, {1.0, 5.0}, {0.5, 9.0}}) == Indices{2, 0, 1});
}

TEST_CASE("pareto: empty input and non-finite points", "[pareto]") {
  CHECK(pareto_front({}).empty());
  const std::vector<XY> pts{{NAN, 0.1}, {1.0, 3.0}, {INFINITY, 0.5}, {2.0, 2.0}};
  CHECK(pareto_front(pts) == Indices{1, 3});
}
