// Host-side launchers of the backend's own kernels (kernels.cu): element-wise
// maps and double-accumulating reductions. Each queues work on `stream` and
// checks the launch; none synchronises. Pointers may alias where the Backend
// interface allows it (out == input).
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

namespace edp {
namespace cuda {

struct Launch {
  cudaStream_t stream = nullptr;
  // SMs of the device. A grid-stride loop gets at most sm_count times the
  // blocks of its kernel that are resident on one SM at once (its occupancy,
  // asked of the runtime once per kernel and device), so no block waits for
  // another to finish: a TX2 map2 grid used to be 16 blocks of which 12 fit.
  int sm_count = 1;
};

// Number of doubles the reductions need as scratch (per-block partial sums).
constexpr int kReduceMaxBlocks = 1024;

void launch_fill(const Launch& l, float* out, float value, std::int64_t n);
void launch_broadcast(const Launch& l, const float* scalar, float* out, std::int64_t n);
void launch_relu(const Launch& l, const float* x, float* y, std::int64_t n);
void launch_relu_backward(const Launch& l, const float* grad_y, const float* x, float* grad_x,
                          std::int64_t n);
void launch_sub(const Launch& l, const float* a, const float* b, float* out, std::int64_t n);
void launch_mul(const Launch& l, const float* a, const float* b, float* out, std::int64_t n);
void launch_scale(const Launch& l, const float* x, float alpha, float* out, std::int64_t n);
void launch_square(const Launch& l, const float* x, float* out, std::int64_t n);
void launch_axpy(const Launch& l, float alpha, const float* x, float* y, std::int64_t n);
void launch_add(const Launch& l, const float* a, const float* b, float* out, std::int64_t n);
void launch_sigmoid(const Launch& l, const float* x, float* out, std::int64_t n);
void launch_tanh(const Launch& l, const float* x, float* out, std::int64_t n);

// fma_peak (DESIGN §2.3): fma_peak_blocks(l) blocks of kFmaPeakThreads threads
// (every SM full), each thread running kFmaPeakChains independent FMA chains
// for `rounds` rounds. sink[0] is zeroed, then receives the sum of every chain.
constexpr int kFmaPeakThreads = 256;
constexpr int kFmaPeakChains = 8;
int fma_peak_blocks(const Launch& l);
void launch_fma_peak(const Launch& l, std::int64_t rounds, float* sink);

// out[0] = (float) sum(x), accumulated in double. `scratch` holds
// kReduceMaxBlocks doubles. Deterministic for a given n and max_blocks.
void launch_sum(const Launch& l, const float* x, std::int64_t n, double* scratch, float* out);
// diff = a - b (float), out[0] = (float) sum((double) diff^2).
void launch_sub_square_sum(const Launch& l, const float* a, const float* b, float* diff,
                           std::int64_t n, double* scratch, float* out);

// cudaSuccess when this binary holds code the current device can run;
// cudaErrorInvalidDeviceFunction / cudaErrorNoKernelImageForDevice when it was
// built for other architectures (e.g. a CUDA 13 build on a TX2).
cudaError_t probe_kernel_image();

}  // namespace cuda
}  // namespace edp
