// The one clock of edpbench: std::chrono::steady_clock, the same clock the
// runner times runs with, so sample timestamps and run windows line up.
#pragma once

namespace edp::power {

double now_s();       // steady_clock now in seconds (CLOCK_MONOTONIC on Linux)
double unix_now_s();  // CLOCK_REALTIME now, seconds since the epoch: for aligning an external log

}  // namespace edp::power
