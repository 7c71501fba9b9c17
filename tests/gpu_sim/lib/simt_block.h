// GPU simulator: runs one kernel launch, block after block; inside a block
// every thread is a fiber (fiber.h) and the runner enforces the CUDA
// synchronisation rules (see include/edp_sim/device.h).
#pragma once

#include <cstddef>
#include <functional>
#include <string>

#include "cuda_runtime_api.h"

namespace edp_sim {

// Aborts, naming the kernel, when the launch breaks a device limit
// (device_limits.h); called when the launch is queued, as the hardware
// refuses it at launch.
void check_launch_limits(const char* kernel, dim3 grid, dim3 block, std::size_t shared_bytes);

// Runs every block of the grid; `thread_body` is the kernel applied to its
// arguments, called once per simulated thread.
void run_grid(const std::string& kernel, dim3 grid, dim3 block,
              const std::function<void()>& thread_body);

}  // namespace edp_sim
