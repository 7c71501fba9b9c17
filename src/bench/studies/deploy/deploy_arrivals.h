// When requests arrive in the deploy study's open-loop checks: a Poisson
// process at a rate (exponential gaps from a seeded generator, so a check
// can be repeated exactly), or one every 1/rate seconds.
#pragma once

#include <cstdint>
#include <vector>

namespace edp::bench {

// Arrival times in [0, seconds), ascending; the first Poisson arrival comes
// one exponential gap after 0, the first periodic one at 1/rate.
std::vector<double> arrival_times(double rate_hz, double seconds, bool periodic, uint64_t seed);

// How many arrivals a schedule holds on average: rate x seconds for Poisson
// (a realisation scatters around it by its square root), the exact count
// for periodic ones.
double expected_arrivals(double rate_hz, double seconds, bool periodic);

}  // namespace edp::bench
