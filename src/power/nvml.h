// NVIDIA GPUs through NVML, loaded with dlopen("libnvidia-ml.so.1") at run
// time so the build has no driver dependency. Prefers the total energy
// counter (nvmlDeviceGetTotalEnergyConsumption, mJ, Volta and newer) and
// falls back to sampled power (nvmlDeviceGetPowerUsage, mW; a 1 s average
// above GA100). The counter is checked against a plausibility limit derived
// from the board's power limit (power/counter.h): a reset (driver reload, GPU
// reset) restarts the baseline and a jump is discarded, both counted as
// anomalies. Jetsons have no NVML; a missing library simply means "not found".
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "power/sensor.h"

namespace edp::power {

// `library` is what dlopen is given; tests pass the path of a fake NVML.
std::unique_ptr<Sensor> discover_nvml(std::vector<std::string>* log,
                                      const std::string& library = "libnvidia-ml.so.1");

}  // namespace edp::power
