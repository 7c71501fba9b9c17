// Clocks of a snapshot (see device_clocks.h).
#include "bench/protocol/device_clocks.h"

#include <algorithm>
#include <cmath>

namespace edp::bench {

// Mean current clock of `cpus` (all CPUs when empty), MHz; NaN if unknown.
double cpu_mhz(const platform::Platform& p, const platform::Snapshot& s,
               const std::vector<int>& cpus) {
  double sum = 0;
  int n = 0;
  for (size_t i = 0; i < p.cpus.size() && i < s.cpu_cur_khz.size(); ++i) {
    if (s.cpu_cur_khz[i] < 0) continue;
    if (!cpus.empty() && std::find(cpus.begin(), cpus.end(), p.cpus[i].id) == cpus.end()) continue;
    sum += s.cpu_cur_khz[i] / 1e3;
    ++n;
  }
  return n ? sum / n : NAN;
}

double gpu_mhz(const platform::Snapshot& s) { return s.gpu_cur_hz < 0 ? NAN : s.gpu_cur_hz / 1e6; }

}  // namespace edp::bench
