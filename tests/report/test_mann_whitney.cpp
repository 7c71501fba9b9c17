// The U test and the geometric mean against values computed by hand and with
// scipy 1.10.1 (Debian python3-scipy): scipy.stats.mannwhitneyu(x, y,
// alternative="two-sided", method="exact" | "asymptotic").
#include <catch2/catch.hpp>

#include <cmath>
#include <numeric>

#include "report/geomean.h"
#include "report/mann_whitney.h"

using namespace edp::report;

TEST_CASE("mann_whitney_counts is the distribution of U") {
  // 2 + 2 values: the 6 arrangements give U1 = 0, 1, 2, 2, 3, 4 (by hand).
  CHECK(mann_whitney_counts(2, 2) == std::vector<double>{1, 1, 2, 1, 1});
  // 3 + 2 (by hand, 10 arrangements): U1 = 0..6 with counts 1 1 2 2 2 1 1.
  CHECK(mann_whitney_counts(3, 2) == std::vector<double>{1, 1, 2, 2, 2, 1, 1});
  // Every arrangement once: the counts sum to C(n1+n2, n1); symmetric.
  const auto c = mann_whitney_counts(10, 7);
  CHECK(std::accumulate(c.begin(), c.end(), 0.0) == 19448.0);  // C(17, 7)
  for (size_t u = 0; u < c.size(); ++u) CHECK(c[u] == c[c.size() - 1 - u]);
}

TEST_CASE("mann_whitney_min_p: what a few runs can show at all") {
  CHECK(mann_whitney_min_p(3, 3) == Approx(0.1));        // 2/20
  CHECK(mann_whitney_min_p(3, 4) == Approx(2.0 / 35));   // 0.057: not below 0.05
  CHECK(mann_whitney_min_p(4, 4) == Approx(2.0 / 70));   // 0.029
  CHECK(mann_whitney_min_p(5, 5) == Approx(2.0 / 252));  // 0.0079
  CHECK(mann_whitney_min_p(1, 1) == 1.0);                // 2/2
  CHECK(mann_whitney_min_p(0, 5) == 1.0);
}

TEST_CASE("mann_whitney_u: exact p for small samples without ties (scipy method=exact)") {
  struct Case {
    std::vector<double> x, y;
    double u1, p;
  };
  const std::vector<Case> cases{
      {{1, 2, 3, 4, 5}, {6, 7, 8, 9, 10}, 0, 0.007936507936507936},  // = 2/252
      {{1, 2, 3}, {4, 5, 6}, 0, 0.1},
      {{1.1, 2.2, 3.3, 4.4}, {5.5, 6.6, 7.7, 8.8}, 0, 0.02857142857142857},
      {{1.83, 0.50, 1.62, 2.48, 1.68},
       {0.878, 0.647, 0.598, 2.05, 1.06, 1.29},
       21,
       0.32900432900432897},
      {{12.1, 13.4, 11.9, 14.2, 12.8, 13.0, 12.5},
       {13.9, 14.8, 15.1, 13.2, 14.4, 15.6, 14.0, 13.7},
       5,
       0.005905205905205905},
      {{1, 3, 5, 7, 9, 11}, {2, 4, 6, 8, 10, 12}, 15, 0.6991341991341992},
  };
  for (const auto& c : cases) {
    const MannWhitney r = mann_whitney_u(c.x, c.y);
    CHECK(r.exact);
    CHECK_FALSE(r.ties);
    CHECK(r.u1 == c.u1);
    CHECK(r.u1 + r.u2 == Approx(static_cast<double>(c.x.size() * c.y.size())));
    CHECK(r.p == Approx(c.p).epsilon(1e-12));
    // The test is symmetric in its two samples.
    CHECK(mann_whitney_u(c.y, c.x).p == Approx(c.p).epsilon(1e-12));
  }
}

TEST_CASE("mann_whitney_u: normal approximation with ties or large samples (scipy asymptotic)") {
  // Ties (2, 3, 4, 5 repeat): midranks, tie-corrected variance.
  const MannWhitney t = mann_whitney_u({1, 2, 2, 3, 4, 4}, {3, 4, 5, 5, 6, 7});
  CHECK(t.ties);
  CHECK_FALSE(t.exact);
  CHECK(t.u1 == 3.5);
  CHECK(t.p == Approx(0.023223192940087675).epsilon(1e-9));
  // 25 + 25 without ties: above kMannWhitneyExactMax, so asymptotic.
  std::vector<double> x, y;
  for (int i = 1; i <= 25; ++i) {
    x.push_back(i);
    y.push_back(i + 5.5);
  }
  const MannWhitney a = mann_whitney_u(x, y);
  CHECK_FALSE(a.exact);
  CHECK(a.u1 == 190);
  CHECK(a.p == Approx(0.017925777357406476).epsilon(1e-9));
  // All equal: no evidence of a difference.
  CHECK(mann_whitney_u({2, 2, 2}, {2, 2, 2}).p == 1.0);
  // An empty side: no test.
  CHECK(std::isnan(mann_whitney_u({}, {1, 2}).p));
}

TEST_CASE("mann_whitney_u: ties never give a p below what the runs can show") {
  // 3 + 3 runs, each side one repeated value (quantized readings), fully
  // separated. Every arrangement of the 6 runs is equally likely under the
  // null hypothesis: the separation has probability 2/20, so p = 0.1
  // (mann_whitney_min_p, which compare prints as "no change can be
  // significant"). The normal approximation with the tie-corrected variance
  // (scipy asymptotic) gives 0.047, which alpha 0.05 would call significant.
  const MannWhitney t = mann_whitney_u({1, 1, 1}, {2, 2, 2});
  CHECK(t.ties);
  CHECK(t.u1 == 0);
  CHECK(t.p == Approx(mann_whitney_min_p(3, 3)));
  CHECK_FALSE(t.p < 0.05);
  // Where the approximation is above the floor it is left as it is.
  CHECK(mann_whitney_u({1, 2, 2, 3, 4, 4}, {3, 4, 5, 5, 6, 7}).p ==
        Approx(0.023223192940087675).epsilon(1e-9));
}

TEST_CASE("geometric_mean") {
  CHECK(*geometric_mean({1, 100}) == Approx(10));
  CHECK(*geometric_mean({2, 8}) == Approx(4));
  CHECK(*geometric_mean({1e-6, 1e6, 5}) == Approx(std::cbrt(5.0)));
  CHECK(*geometric_mean({1e300, 1e300}) == Approx(1e300));  // no overflow
  CHECK_FALSE(geometric_mean({}));
  CHECK_FALSE(geometric_mean({1, 0}));
  CHECK_FALSE(geometric_mean({1, -2}));
  CHECK_FALSE(geometric_mean({1, NAN}));
}
