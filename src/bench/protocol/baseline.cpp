// Which idle baseline an item uses (see baseline.h).
#include "bench/protocol/baseline.h"

namespace edp::bench {

std::string baseline_state(const PlanItem& item) {
  const DeviceSpec& dev = *item.device;
  return (dev.kind == "gpu" ? "gpu:" + std::to_string(dev.index) : "host") +
         (item.point_name.empty() ? "" : "@" + item.point_name);
}

bool takes_sweep_baseline(const Config& cfg) { return cfg.operating_points.empty(); }

}  // namespace edp::bench
