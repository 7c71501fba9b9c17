// The Mann-Whitney U test (Wilcoxon rank-sum), two-sided, as benchstat and
// google-benchmark's compare.py use it to say whether two sets of runs differ:
// no assumption of normality, only that runs are independent. Pure functions.
//
// Small samples without ties get the exact distribution of U (every
// arrangement of the two samples equally likely under the null hypothesis);
// larger samples, or any ties, the normal approximation with the tie
// correction of the variance and a continuity correction of 0.5, which is
// what scipy.stats.mannwhitneyu(x, y, alternative="two-sided") computes with
// method="exact" and method="asymptotic" respectively, except that the
// approximation is never below mann_whitney_min_p (few tied runs).
#pragma once

#include <vector>

namespace edp::report {

// Samples up to this size on both sides, without ties, get the exact p.
constexpr int kMannWhitneyExactMax = 20;

struct MannWhitney {
  int n1 = 0, n2 = 0;
  double u1 = 0;  // pairs (x_i, y_j) with x_i > y_j, ties counting 1/2
  double u2 = 0;  // n1 * n2 - u1
  double p = 1;   // two-sided; NaN when a sample is empty
  bool exact = false;
  bool ties = false;  // some value occurs more than once in the pooled sample
};

// Non-finite values are the caller's to remove; an empty side gives p = NaN.
MannWhitney mann_whitney_u(const std::vector<double>& x, const std::vector<double>& y);

// The number of arrangements of n1 + n2 distinct values into the two samples
// with U1 = u, for u = 0 .. n1*n2 (the coefficients of the Gaussian binomial
// [n1+n2 choose n1]_q); they sum to C(n1+n2, n1).
std::vector<double> mann_whitney_counts(int n1, int n2);

// The smallest two-sided p the exact test can give with n1 and n2 runs:
// 2 / C(n1+n2, n1), at most 1 (3 + 3 runs: 0.1; 4 + 4: 0.029; 5 + 5: 0.0079).
// When it is above alpha, no difference can be called significant.
double mann_whitney_min_p(int n1, int n2);

}  // namespace edp::report
