// GPU simulator: runs one kernel launch. Several blocks are resident at once,
// as on the SMs of a GPU; inside a block every thread is a fiber (fiber.h).
// The runner enforces the CUDA synchronisation rules (see
// include/edp_sim/device.h) and switches between the resident blocks at
// barriers and at random points chosen from the schedule seed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

#include "cuda_runtime_api.h"
#include "edp_sim/device.h"

namespace edp_sim {

// Blocks of `threads_per_block` threads resident on the device at once: the
// SMs times the blocks one SM holds (device_limits.h: threads and blocks per
// SM), at least 1.
int resident_blocks(unsigned threads_per_block);

// Runs every block of the grid; `thread_body` is the kernel applied to its
// arguments, called once per simulated thread. `shared` is the program's
// __shared__ memory, swapped per block. The schedule's generator is seeded
// from the schedule seed and the number of grids run since it was set.
void run_grid(const std::string& kernel, dim3 grid, dim3 block,
              const std::function<void()>& thread_body, SharedRegion shared);

}  // namespace edp_sim
