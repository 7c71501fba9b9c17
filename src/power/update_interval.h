// Robust estimate of a sensor's update interval from the times its value
// changed (DESIGN §4.2).
//
// An averaging monitor (INA3221, INA226, hwmon INA2xx) publishes a new value
// every T and holds it; the sampler sees each update as a change of value,
// up to one sampling period late. Two things make the naive mean of the gaps
// wrong: an update that repeats the previous value is invisible (the gap is
// 2T), and a rail that changes rarely must not speak for the one that
// decides the energy. So the estimate is per rail, over its recent changes:
// the lower-quartile gap T_ref says which gaps are single updates (the
// median would not, once half the updates repeat a value), every gap counts
// as round(gap / T_ref) updates, and T = sum(gaps) / sum(updates).
#pragma once

#include <cstddef>

namespace edp::power {

// `times` are the change times of one rail in increasing order (seconds).
// Returns 0 when fewer than 3 changes (2 gaps) are known.
double robust_update_interval(const double* times, size_t n);

}  // namespace edp::power
