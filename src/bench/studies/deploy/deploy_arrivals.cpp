// Arrival schedules (see deploy_arrivals.h).
#include "bench/studies/deploy/deploy_arrivals.h"

#include <random>

namespace edp::bench {

std::vector<double> arrival_times(double rate_hz, double seconds, bool periodic, uint64_t seed) {
  std::vector<double> out;
  if (!(rate_hz > 0) || !(seconds > 0)) return out;
  if (periodic) {
    for (double k = 1; k / rate_hz < seconds; ++k) out.push_back(k / rate_hz);
    return out;
  }
  std::mt19937_64 gen(seed);
  std::exponential_distribution<double> gap(rate_hz);
  for (double t = gap(gen); t < seconds; t += gap(gen)) out.push_back(t);
  return out;
}

double expected_arrivals(double rate_hz, double seconds, bool periodic) {
  if (!(rate_hz > 0) || !(seconds > 0)) return 0;
  if (!periodic) return rate_hz * seconds;
  return static_cast<double>(arrival_times(rate_hz, seconds, true, 0).size());
}

}  // namespace edp::bench
