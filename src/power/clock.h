// The one clock of edpbench: std::chrono::steady_clock, the same clock the
// runner times runs with, so sample timestamps and run windows line up.
#pragma once

namespace edp::power {

double now_s();  // steady_clock now in seconds

}  // namespace edp::power
