// GPU simulator: library handles die with their context (cudaDeviceReset).
#pragma once

namespace edp_sim {

void destroy_cublas_handles(int device);
void destroy_cudnn_handles(int device);
inline void destroy_library_handles(int device) {
  destroy_cublas_handles(device);
  destroy_cudnn_handles(device);
}

}  // namespace edp_sim
