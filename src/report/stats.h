// Summary statistics over repeated runs: pure functions over vectors, with
// the edge cases defined (empty input -> NaN, n < 2 -> std and CI are 0).
#pragma once

#include <vector>

namespace edp::report {

struct Summary {
  int n = 0;
  double mean = 0, std = 0, ci95 = 0, median = 0, min = 0, max = 0;
};

double mean(const std::vector<double>& v);
// Sample standard deviation (n - 1 in the denominator).
double stddev(const std::vector<double>& v);
double median(std::vector<double> v);
// The q-quantile (0 <= q <= 1), interpolated between the order statistics
// at (n - 1) q (Hyndman and Fan's type 7, numpy's default); NaN when empty.
double quantile(std::vector<double> v, double q);
// Two-sided 97.5% quantile of Student's t with `dof` degrees of freedom.
double student_t975(int dof);
// Half-width of the 95% confidence interval of the mean: t * s / sqrt(n).
double ci95_half_width(const std::vector<double>& v);
Summary summarize(const std::vector<double>& v);

}  // namespace edp::report
