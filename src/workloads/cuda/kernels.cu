// The backend's own kernels (DESIGN §2: cuBLAS does the GEMMs, everything else
// is here). Element-wise maps are grid-stride loops over float4 with a scalar
// tail; reductions accumulate in double (Backend::sum contract): a first pass
// writes one partial sum per block, a one-block second pass adds the partials
// in a fixed order, so the result is the same from run to run.
//
// C++14 and CUDA 10.2 APIs only: this must build with nvcc 10.2 for sm_62.
#include "workloads/cuda/kernels.h"

#include <cstdint>
#include <map>
#include <mutex>
#include <utility>

#include "workloads/cuda/cuda_check.h"
#include "workloads/cuda/launch.h"

namespace edp {
namespace cuda {

namespace {

constexpr int kThreads = 256;
constexpr int kWarp = 32;

// Every kernel here runs blocks of kThreads. 8 of them fill an SM of 2048
// threads (sm_62, sm_72) if each thread needs at most 64K / (8 x 256) = 32
// registers; map2 needed 40 on sm_62/72 (CUDA 11.8), so only 6 fitted. The
// bound makes ptxas keep to 32 (no spills: scripts/ci-cuda118.sh checks), and
// the grids are sized by the occupancy the runtime reports anyway. Only nvcc
// sees the attribute.
//
// The grid-stride loops are not unrolled (#pragma unroll 1): a thread makes
// few trips, and nvcc's unrolled map2 needed the 40 registers (32 spilled
// 24 bytes on sm_72).
// Resident threads per SM (CUDA C++ Programming Guide, "Features and
// Technical Specifications"): 2048 on sm_62 and sm_72, 1536 on sm_87; other
// architectures get the thread bound only.
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ == 620 || __CUDA_ARCH__ == 720)
#define EDP_MIN_BLOCKS_PER_SM 8
#elif defined(__CUDA_ARCH__) && __CUDA_ARCH__ == 870
#define EDP_MIN_BLOCKS_PER_SM 6
#else
#define EDP_MIN_BLOCKS_PER_SM 1
#endif
#if defined(__CUDACC__)
#define EDP_LAUNCH_BOUNDS __launch_bounds__(kThreads, EDP_MIN_BLOCKS_PER_SM)
#else
#define EDP_LAUNCH_BOUNDS
#endif

bool aligned16(const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; }

// Blocks of kThreads threads of `kernel` resident on one SM of the current
// device (registers, shared memory, the SM's thread and block limits), asked
// once per kernel and device: the same sources run 8 on a TX2, 6 on an Orin.
template <class Kernel>
int resident_blocks_per_sm(Kernel kernel) {
  static std::mutex mutex;
  static std::map<std::pair<const void*, int>, int> cache;
  int device = 0;
  CUDA_CHECK_THROW(cudaGetDevice(&device));
  const std::pair<const void*, int> key(reinterpret_cast<const void*>(kernel), device);
  std::lock_guard<std::mutex> lock(mutex);
  const auto it = cache.find(key);
  if (it != cache.end()) return it->second;
  int blocks = 0;
  CUDA_CHECK_THROW(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, kThreads, 0));
  if (blocks < 1) blocks = 1;  // 0 would be a launch error, which the launch reports
  cache.emplace(key, blocks);
  return blocks;
}

template <class Kernel>
int max_blocks(const Launch& l, Kernel kernel) {
  return (l.sm_count > 0 ? l.sm_count : 1) * resident_blocks_per_sm(kernel);
}

template <class Kernel>
int grid_for(const Launch& l, Kernel kernel, std::int64_t work_items) {
  const std::int64_t blocks = (work_items + kThreads - 1) / kThreads;
  if (blocks < 1) return 1;
  const int cap = max_blocks(l, kernel);
  return blocks < cap ? static_cast<int>(blocks) : cap;
}

// ---- element-wise ---------------------------------------------------------

// out-of-place maps; `vec` says every pointer is 16-byte aligned. Pointers are
// not __restrict__: out may alias an input, which is safe because each element
// is read and written by the same thread, read first.
template <class Op>
__global__ void EDP_LAUNCH_BOUNDS map0_kernel(float* out, std::int64_t n, bool vec, Op op) {
  const std::int64_t stride = static_cast<std::int64_t>(blockDim.x) * gridDim.x;
  const std::int64_t first = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::int64_t n4 = vec ? n / 4 : 0;
  float4* out4 = reinterpret_cast<float4*>(out);
#pragma unroll 1
  for (std::int64_t i = first; i < n4; i += stride) {
    const float v = op();
    out4[i] = make_float4(v, v, v, v);
  }
#pragma unroll 1
  for (std::int64_t i = n4 * 4 + first; i < n; i += stride) out[i] = op();
}

template <class Op>
__global__ void EDP_LAUNCH_BOUNDS map1_kernel(const float* x, float* out, std::int64_t n, bool vec,
                                              Op op) {
  const std::int64_t stride = static_cast<std::int64_t>(blockDim.x) * gridDim.x;
  const std::int64_t first = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::int64_t n4 = vec ? n / 4 : 0;
  const float4* x4 = reinterpret_cast<const float4*>(x);
  float4* out4 = reinterpret_cast<float4*>(out);
#pragma unroll 1
  for (std::int64_t i = first; i < n4; i += stride) {
    const float4 v = x4[i];
    out4[i] = make_float4(op(v.x), op(v.y), op(v.z), op(v.w));
  }
#pragma unroll 1
  for (std::int64_t i = n4 * 4 + first; i < n; i += stride) out[i] = op(x[i]);
}

template <class Op>
__global__ void EDP_LAUNCH_BOUNDS map2_kernel(const float* a, const float* b, float* out,
                                              std::int64_t n, bool vec, Op op) {
  const std::int64_t stride = static_cast<std::int64_t>(blockDim.x) * gridDim.x;
  const std::int64_t first = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::int64_t n4 = vec ? n / 4 : 0;
  const float4* a4 = reinterpret_cast<const float4*>(a);
  const float4* b4 = reinterpret_cast<const float4*>(b);
  float4* out4 = reinterpret_cast<float4*>(out);
#pragma unroll 1
  for (std::int64_t i = first; i < n4; i += stride) {
    const float4 u = a4[i];
    const float4 v = b4[i];
    out4[i] = make_float4(op(u.x, v.x), op(u.y, v.y), op(u.z, v.z), op(u.w, v.w));
  }
#pragma unroll 1
  for (std::int64_t i = n4 * 4 + first; i < n; i += stride) out[i] = op(a[i], b[i]);
}

struct ConstantOp {
  float value;
  __device__ float operator()() const { return value; }
};
// Reads the 1x1 device tensor in every thread: it stays in L1/L2, and the
// value never has to visit the host.
struct LoadOp {
  const float* scalar;
  __device__ float operator()() const { return *scalar; }
};
// max(x, 0) that keeps NaN (as cuDNN with CUDNN_PROPAGATE_NAN and PyTorch do):
// a diverged run must stay visibly diverged.
struct ReluOp {
  __device__ float operator()(float x) const { return x < 0.0f ? 0.0f : x; }
};
// DESIGN §2: the gradient is masked where h < 0 (it passes at h == 0).
struct ReluBackwardOp {
  __device__ float operator()(float grad_y, float x) const { return x < 0.0f ? 0.0f : grad_y; }
};
struct SubOp {
  __device__ float operator()(float a, float b) const { return a - b; }
};
struct MulOp {
  __device__ float operator()(float a, float b) const { return a * b; }
};
struct ScaleOp {
  float alpha;
  __device__ float operator()(float x) const { return alpha * x; }
};
struct SquareOp {
  __device__ float operator()(float x) const { return x * x; }
};
// y + alpha * x; nvcc contracts this into one FMA (one rounding), as a BLAS
// saxpy on the GPU does.
struct AxpyOp {
  float alpha;
  __device__ float operator()(float x, float y) const { return y + alpha * x; }
};

struct AddOp {
  __device__ float operator()(float a, float b) const { return a + b; }
};
// expf and tanhf, not the __expf intrinsic: within 2 ulp (CUDA C Programming
// Guide, "Mathematical Functions"), so the results stay comparable with the
// reference. expf(+inf) = inf makes sigmoid(-inf) = 0; NaN propagates.
struct SigmoidOp {
  __device__ float operator()(float x) const { return 1.0f / (1.0f + expf(-x)); }
};
struct TanhOp {
  __device__ float operator()(float x) const { return tanhf(x); }
};

// Rounds per trip of the hot loop. Left to itself nvcc unrolled the round
// loop 4x: 32 FFMA beside 6 instructions of 64-bit counter and branch, 84% of
// the loop (sm_62, CUDA 11.8), so the measured peak read ~16% low. 32 rounds
// make it 256 FFMA per trip; scripts/ci-cuda118.sh checks the share >= 95% in
// the sm_62 SASS (scripts/sass_ffma_share.py).
constexpr int kFmaPeakUnroll = 32;
static_assert(kFmaPeakThreads == kThreads, "fma_peak's occupancy is asked for kThreads");

// Independent chains per thread; with a full SM the warp schedulers always
// have an FMA ready. m < 1 keeps the values bounded (no inf, no denormals).
__global__ void EDP_LAUNCH_BOUNDS fma_peak_kernel(std::int64_t rounds, float m, float c,
                                                  float* sink) {
  float acc[kFmaPeakChains];
#pragma unroll
  for (int j = 0; j < kFmaPeakChains; ++j) acc[j] = static_cast<float>(threadIdx.x + j);
  const std::int64_t trips = rounds / kFmaPeakUnroll;
  for (std::int64_t t = 0; t < trips; ++t) {
#pragma unroll
    for (int u = 0; u < kFmaPeakUnroll; ++u) {
#pragma unroll
      for (int j = 0; j < kFmaPeakChains; ++j) acc[j] = fmaf(acc[j], m, c);
    }
  }
  for (std::int64_t r = trips * kFmaPeakUnroll; r < rounds; ++r) {
#pragma unroll
    for (int j = 0; j < kFmaPeakChains; ++j) acc[j] = fmaf(acc[j], m, c);
  }
  float total = 0.0f;
#pragma unroll
  for (int j = 0; j < kFmaPeakChains; ++j) total += acc[j];
  for (int offset = kWarp / 2; offset > 0; offset /= 2) {
    total += __shfl_down_sync(0xffffffffu, total, offset);
  }
  if (threadIdx.x % kWarp == 0) atomicAdd(sink, total);
}

template <class Op>
void run_map0(const Launch& l, float* out, std::int64_t n, Op op) {
  if (n <= 0) return;
  const bool vec = aligned16(out);
  EDP_LAUNCH(map0_kernel<Op>, grid_for(l, &map0_kernel<Op>, vec ? n / 4 + n % 4 : n), kThreads, 0,
             l.stream, out, n, vec, op);
  CUDA_CHECK_THROW(cudaGetLastError());
}

template <class Op>
void run_map1(const Launch& l, const float* x, float* out, std::int64_t n, Op op) {
  if (n <= 0) return;
  const bool vec = aligned16(x) && aligned16(out);
  EDP_LAUNCH(map1_kernel<Op>, grid_for(l, &map1_kernel<Op>, vec ? n / 4 + n % 4 : n), kThreads, 0,
             l.stream, x, out, n, vec, op);
  CUDA_CHECK_THROW(cudaGetLastError());
}

template <class Op>
void run_map2(const Launch& l, const float* a, const float* b, float* out, std::int64_t n, Op op) {
  if (n <= 0) return;
  const bool vec = aligned16(a) && aligned16(b) && aligned16(out);
  EDP_LAUNCH(map2_kernel<Op>, grid_for(l, &map2_kernel<Op>, vec ? n / 4 + n % 4 : n), kThreads, 0,
             l.stream, a, b, out, n, vec, op);
  CUDA_CHECK_THROW(cudaGetLastError());
}

// ---- reductions -------------------------------------------------------------

// Sum of v over the block; the result is valid in thread 0. blockDim.x must be
// a multiple of 32 (it is kThreads).
__device__ double block_sum(double v) {
  __shared__ double warp_sums[kThreads / kWarp];
  for (int offset = kWarp / 2; offset > 0; offset /= 2) {
    v += __shfl_down_sync(0xffffffffu, v, offset);
  }
  const int lane = threadIdx.x % kWarp;
  const int warp = threadIdx.x / kWarp;
  if (lane == 0) warp_sums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < static_cast<int>(blockDim.x / kWarp) ? warp_sums[lane] : 0.0;
    for (int offset = kWarp / 2; offset > 0; offset /= 2) {
      v += __shfl_down_sync(0xffffffffu, v, offset);
    }
  }
  return v;
}

__global__ void EDP_LAUNCH_BOUNDS partial_sum_kernel(const float* x, std::int64_t n,
                                                     double* partials) {
  const std::int64_t stride = static_cast<std::int64_t>(blockDim.x) * gridDim.x;
  double acc = 0.0;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride) {
    acc += static_cast<double>(x[i]);
  }
  acc = block_sum(acc);
  if (threadIdx.x == 0) partials[blockIdx.x] = acc;
}

__global__ void EDP_LAUNCH_BOUNDS partial_sub_square_sum_kernel(const float* a, const float* b,
                                                                float* diff, std::int64_t n,
                                                                double* partials) {
  const std::int64_t stride = static_cast<std::int64_t>(blockDim.x) * gridDim.x;
  double acc = 0.0;
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += stride) {
    const float d = a[i] - b[i];
    diff[i] = d;
    acc += static_cast<double>(d) * static_cast<double>(d);
  }
  acc = block_sum(acc);
  if (threadIdx.x == 0) partials[blockIdx.x] = acc;
}

__global__ void EDP_LAUNCH_BOUNDS finish_sum_kernel(const double* partials, int count, float* out) {
  double acc = 0.0;
  for (int i = threadIdx.x; i < count; i += blockDim.x) acc += partials[i];
  acc = block_sum(acc);
  if (threadIdx.x == 0) out[0] = static_cast<float>(acc);
}

template <class Kernel>
int reduce_blocks(const Launch& l, Kernel kernel, std::int64_t n) {
  const int resident = max_blocks(l, kernel);
  const int cap = resident < kReduceMaxBlocks ? resident : kReduceMaxBlocks;
  const std::int64_t blocks = (n + kThreads - 1) / kThreads;
  return blocks < cap ? static_cast<int>(blocks) : cap;
}

}  // namespace

void launch_fill(const Launch& l, float* out, float value, std::int64_t n) {
  run_map0(l, out, n, ConstantOp{value});
}

void launch_broadcast(const Launch& l, const float* scalar, float* out, std::int64_t n) {
  run_map0(l, out, n, LoadOp{scalar});
}

void launch_relu(const Launch& l, const float* x, float* y, std::int64_t n) {
  run_map1(l, x, y, n, ReluOp{});
}

void launch_relu_backward(const Launch& l, const float* grad_y, const float* x, float* grad_x,
                          std::int64_t n) {
  run_map2(l, grad_y, x, grad_x, n, ReluBackwardOp{});
}

void launch_sub(const Launch& l, const float* a, const float* b, float* out, std::int64_t n) {
  run_map2(l, a, b, out, n, SubOp{});
}

void launch_mul(const Launch& l, const float* a, const float* b, float* out, std::int64_t n) {
  run_map2(l, a, b, out, n, MulOp{});
}

void launch_scale(const Launch& l, const float* x, float alpha, float* out, std::int64_t n) {
  run_map1(l, x, out, n, ScaleOp{alpha});
}

void launch_square(const Launch& l, const float* x, float* out, std::int64_t n) {
  run_map1(l, x, out, n, SquareOp{});
}

void launch_axpy(const Launch& l, float alpha, const float* x, float* y, std::int64_t n) {
  run_map2(l, x, y, y, n, AxpyOp{alpha});
}

void launch_add(const Launch& l, const float* a, const float* b, float* out, std::int64_t n) {
  run_map2(l, a, b, out, n, AddOp{});
}

void launch_sigmoid(const Launch& l, const float* x, float* out, std::int64_t n) {
  run_map1(l, x, out, n, SigmoidOp{});
}

void launch_tanh(const Launch& l, const float* x, float* out, std::int64_t n) {
  run_map1(l, x, out, n, TanhOp{});
}

int fma_peak_blocks(const Launch& l) { return max_blocks(l, &fma_peak_kernel); }

void launch_fma_peak(const Launch& l, std::int64_t rounds, float* sink) {
  CUDA_CHECK_THROW(cudaMemsetAsync(sink, 0, sizeof(float), l.stream));
  EDP_LAUNCH(fma_peak_kernel, fma_peak_blocks(l), kFmaPeakThreads, 0, l.stream, rounds, 0.999999f,
             1e-3f, sink);
  CUDA_CHECK_THROW(cudaGetLastError());
}

void launch_sum(const Launch& l, const float* x, std::int64_t n, double* scratch, float* out) {
  const int blocks = n > 0 ? reduce_blocks(l, &partial_sum_kernel, n) : 0;
  if (blocks > 0) {
    EDP_LAUNCH(partial_sum_kernel, blocks, kThreads, 0, l.stream, x, n, scratch);
    CUDA_CHECK_THROW(cudaGetLastError());
  }
  EDP_LAUNCH(finish_sum_kernel, 1, kThreads, 0, l.stream, scratch, blocks, out);
  CUDA_CHECK_THROW(cudaGetLastError());
}

void launch_sub_square_sum(const Launch& l, const float* a, const float* b, float* diff,
                           std::int64_t n, double* scratch, float* out) {
  const int blocks = n > 0 ? reduce_blocks(l, &partial_sub_square_sum_kernel, n) : 0;
  if (blocks > 0) {
    EDP_LAUNCH(partial_sub_square_sum_kernel, blocks, kThreads, 0, l.stream, a, b, diff, n,
               scratch);
    CUDA_CHECK_THROW(cudaGetLastError());
  }
  EDP_LAUNCH(finish_sum_kernel, 1, kThreads, 0, l.stream, scratch, blocks, out);
  CUDA_CHECK_THROW(cudaGetLastError());
}

cudaError_t probe_kernel_image() {
  cudaFuncAttributes attributes;
  const cudaError_t status = cudaFuncGetAttributes(&attributes, finish_sum_kernel);
  if (status != cudaSuccess) (void)cudaGetLastError();
  return status;
}

}  // namespace cuda
}  // namespace edp
