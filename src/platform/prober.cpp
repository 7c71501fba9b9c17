// Prober: discover once, then snapshot() preads the files kept open.
#include <chrono>

#include "platform/platform.h"
#include "platform/thermal.h"

namespace edp::platform {

Prober::Prober(const std::string& sysfs_root) : Prober(probe(sysfs_root)) {}

Prober::Prober(Platform platform) : platform_(std::move(platform)) {
  const SysfsRoot root(platform_.sysfs_root);
  for (const auto& c : platform_.cpus) {
    cpu_cur_.emplace_back(root.path("/sys/devices/system/cpu/cpu" + std::to_string(c.id) +
                                    "/cpufreq/scaling_cur_freq"));
  }
  if (!platform_.gpu_devfreq_path.empty()) {
    gpu_cur_ = Fd(root.path(platform_.gpu_devfreq_path + "/cur_freq"));
  }
  for (const auto& z : platform_.thermal)
    temps_.emplace_back(root.path(thermal_temp_path(z.index)));
}

Snapshot Prober::snapshot() const {
  Snapshot s;
  s.t_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
  s.cpu_cur_khz.reserve(cpu_cur_.size());
  for (const auto& fd : cpu_cur_) s.cpu_cur_khz.push_back(fd.read_long().value_or(-1));
  s.gpu_cur_hz = gpu_cur_.read_long().value_or(-1);
  s.temps_c.reserve(temps_.size());
  for (size_t i = 0; i < temps_.size(); ++i) {
    const double t = millideg_to_c(temps_[i].read_long());
    s.temps_c.push_back(t);
    if (!std::isnan(t) && counts_for_max_temp(platform_.thermal[i].type) &&
        (std::isnan(s.max_temp_c) || t > s.max_temp_c)) {
      s.max_temp_c = t;
    }
  }
  return s;
}

}  // namespace edp::platform
