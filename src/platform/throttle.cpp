// Throttling detection from a Snapshot, in the spirit of nvbench's: a run is
// suspect when a clock it depends on was measurably below its nominal value.
#include <cstdio>

#include "common/text.h"
#include "platform/platform.h"

namespace edp::platform {
namespace {

void add_reason(std::string* why, const std::string& clause) {
  if (!why) return;
  if (!why->empty()) *why += "; ";
  *why += clause;
}

std::string percent(double fraction) { return fmt("%g%%", fraction * 100.0); }

}  // namespace

bool throttled(const Platform& p, const Snapshot& s, const std::vector<int>& cpus, bool gpu,
               double nominal_fraction, std::string* why) {
  if (why) why->clear();
  bool slow = false;
  for (int id : cpus) {
    const int i = p.cpu_index(id);
    if (i < 0 || static_cast<size_t>(i) >= s.cpu_cur_khz.size()) continue;
    const CpuInfo& c = p.cpus[i];
    long nominal = c.max_khz;
    if (c.base_khz > 0 && (nominal <= 0 || c.base_khz < nominal)) nominal = c.base_khz;
    const long cur = s.cpu_cur_khz[i];
    if (nominal <= 0 || cur <= 0) continue;
    if (static_cast<double>(cur) < nominal_fraction * static_cast<double>(nominal)) {
      slow = true;
      add_reason(why, "cpu" + std::to_string(id) + " at " + std::to_string(cur) + " kHz < " +
                          percent(nominal_fraction) + " of " + std::to_string(nominal) + " kHz");
    }
  }
  if (gpu && p.gpu_max_hz > 0 && s.gpu_cur_hz > 0 &&
      static_cast<double>(s.gpu_cur_hz) < nominal_fraction * static_cast<double>(p.gpu_max_hz)) {
    slow = true;
    add_reason(why, "gpu at " + std::to_string(s.gpu_cur_hz) + " Hz < " +
                        percent(nominal_fraction) + " of " + std::to_string(p.gpu_max_hz) + " Hz");
  }
  return slow;
}

}  // namespace edp::platform
