// steady_clock in seconds (see clock.h).
#include "power/clock.h"

#include <chrono>

namespace edp::power {

double now_s() {
  using namespace std::chrono;
  return duration<double>(steady_clock::now().time_since_epoch()).count();
}

double unix_now_s() {
  using namespace std::chrono;
  return duration<double>(system_clock::now().time_since_epoch()).count();
}

}  // namespace edp::power
