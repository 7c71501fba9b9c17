// Exact distribution from the generating function of U (Mann and Whitney
// 1947): prod_{i=1..n1} (1 - q^(n2+i)) / (1 - q^i); the normal approximation
// with the tie-corrected variance n1 n2 / 12 ((n+1) - sum(t^3 - t) / (n (n-1)))
// (Lehmann, Nonparametrics, 1975, ch. 1).
#include "report/mann_whitney.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace edp::report {

std::vector<double> mann_whitney_counts(int n1, int n2) {
  if (n1 < 0 || n2 < 0) return {};
  const size_t deg = static_cast<size_t>(n1) * static_cast<size_t>(n2);
  std::vector<double> c(deg + 1, 0.0);
  c[0] = 1;
  for (int i = 1; i <= n1; ++i) {
    // times (1 - q^(n2+i)), from the top so each term uses the old value
    const size_t m = static_cast<size_t>(n2 + i);
    for (size_t k = deg; k >= m; --k) c[k] -= c[k - m];
    // divided by (1 - q^i): a running sum with stride i (exact, the
    // quotient is a polynomial)
    const size_t s = static_cast<size_t>(i);
    for (size_t k = s; k <= deg; ++k) c[k] += c[k - s];
  }
  return c;
}

double mann_whitney_min_p(int n1, int n2) {
  if (n1 <= 0 || n2 <= 0) return 1;
  // C(n1+n2, n1) by a product that stays exact in double for these sizes
  double comb = 1;
  const int k = std::min(n1, n2), n = n1 + n2;
  for (int i = 1; i <= k; ++i) comb = comb * (n - k + i) / i;
  return std::min(1.0, 2.0 / comb);
}

MannWhitney mann_whitney_u(const std::vector<double>& x, const std::vector<double>& y) {
  MannWhitney r;
  r.n1 = static_cast<int>(x.size());
  r.n2 = static_cast<int>(y.size());
  if (x.empty() || y.empty()) {
    r.p = std::numeric_limits<double>::quiet_NaN();
    return r;
  }
  // Midranks of the pooled sample; U1 = R1 - n1 (n1 + 1) / 2.
  std::vector<std::pair<double, int>> pooled;
  pooled.reserve(x.size() + y.size());
  for (double v : x) pooled.emplace_back(v, 0);
  for (double v : y) pooled.emplace_back(v, 1);
  std::sort(pooled.begin(), pooled.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  const size_t n = pooled.size();
  double rank_sum_x = 0, tie_term = 0;
  for (size_t i = 0; i < n;) {
    size_t j = i;
    while (j + 1 < n && pooled[j + 1].first == pooled[i].first) ++j;
    const double t = static_cast<double>(j - i + 1);
    const double midrank = (static_cast<double>(i + 1) + static_cast<double>(j + 1)) / 2;
    for (size_t k = i; k <= j; ++k)
      if (pooled[k].second == 0) rank_sum_x += midrank;
    if (t > 1) {
      r.ties = true;
      tie_term += t * t * t - t;
    }
    i = j + 1;
  }
  const double n1 = r.n1, n2 = r.n2;
  r.u1 = rank_sum_x - n1 * (n1 + 1) / 2;
  r.u2 = n1 * n2 - r.u1;
  const double u_big = std::max(r.u1, r.u2);

  if (!r.ties && r.n1 <= kMannWhitneyExactMax && r.n2 <= kMannWhitneyExactMax) {
    r.exact = true;
    const auto counts = mann_whitney_counts(r.n1, r.n2);
    double total = 0, upper = 0;
    for (size_t u = 0; u < counts.size(); ++u) {
      total += counts[u];
      if (static_cast<double>(u) >= u_big) upper += counts[u];
    }
    r.p = std::min(1.0, 2 * upper / total);
    return r;
  }
  const double nn = n1 + n2;
  const double var = n1 * n2 / 12 * ((nn + 1) - tie_term / (nn * (nn - 1)));
  if (!(var > 0)) {  // every value equal: no evidence of a difference
    r.p = 1;
    return r;
  }
  const double z = (u_big - n1 * n2 / 2 - 0.5) / std::sqrt(var);
  r.p = std::min(1.0, std::erfc(z / std::sqrt(2.0)));  // 2 * (1 - Phi(z))
  // Ties only make the permutation distribution of U coarser: no arrangement
  // is rarer than 1 in C(n1+n2, n1), so no honest two-sided p is below
  // mann_whitney_min_p. The approximation can go below it with few runs
  // (3 + 3 tied and separated: 0.047 against the true 0.1); floor it there.
  r.p = std::max(r.p, mann_whitney_min_p(r.n1, r.n2));
  return r;
}

}  // namespace edp::report
