// GPU simulator: the simulated device. Its limits are a Jetson TX2's GPU
// (Pascal GP10B, compute capability 6.2; CUDA C++ Programming Guide, "Compute
// Capabilities", table "Technical Specifications per Compute Capability"):
// 1024 threads per block, block dimensions 1024 x 1024 x 64, grid dimensions
// 2^31-1 x 65535 x 65535, 48 KB of shared memory per block, 2048 resident
// threads and 32 resident blocks per SM, warps of 32; 2 SMs (TX2).
#pragma once

#include <cstddef>

namespace edp_sim {

struct DeviceLimits {
  static constexpr int kWarpSize = 32;
  static constexpr int kMaxThreadsPerBlock = 1024;
  static constexpr unsigned kMaxBlockDim[3] = {1024, 1024, 64};
  static constexpr unsigned kMaxGridDim[3] = {2147483647u, 65535u, 65535u};
  static constexpr std::size_t kSharedBytesPerBlock = 48 * 1024;
  static constexpr int kMaxThreadsPerSm = 2048;
  static constexpr int kMaxBlocksPerSm = 32;
  static constexpr int kSmCount = 2;
  static constexpr int kMajor = 6;
  static constexpr int kMinor = 2;
  static constexpr std::size_t kGlobalBytes = std::size_t{8} << 30;  // TX2: 8 GB shared DRAM
  static constexpr int kL2Bytes = 512 * 1024;
  static constexpr int kClockKhz = 1300500;
  static constexpr int kMemoryClockKhz = 1866000;
  static constexpr int kBusWidthBits = 128;
  static constexpr int kDeviceCount = 1;
};

}  // namespace edp_sim
