// Elapsed time on the steady clock, the clock every run, window and sample
// is timed on (power/clock.h): one definition for every timer of the tool.
#pragma once

#include <chrono>

namespace edp {

using SteadyClock = std::chrono::steady_clock;

// Seconds from t0 to now.
inline double seconds_since(SteadyClock::time_point t0) {
  return std::chrono::duration<double>(SteadyClock::now() - t0).count();
}

}  // namespace edp
