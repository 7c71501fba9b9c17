// EDP_LAUNCH(kernel, grid, block, shared_bytes, stream, args...): the one
// kernel launch of the CUDA sources. nvcc gets kernel<<<grid, block,
// shared_bytes, stream>>>(args...); a test build with EDPBENCH_GPU_SIM, which
// compiles the .cu files as C++, runs the kernel on the SIMT simulator of
// tests/gpu_sim (docs/gpu.md) instead.
#pragma once

#if defined(__CUDACC__)
#define EDP_LAUNCH(kernel, grid, block, shared_bytes, stream, ...) \
  kernel<<<(grid), (block), (shared_bytes), (stream)>>>(__VA_ARGS__)
#elif defined(EDPBENCH_GPU_SIM)
#define EDP_LAUNCH(kernel, grid, block, shared_bytes, stream, ...) \
  ::edp_sim::launch(#kernel, kernel, (grid), (block), (shared_bytes), (stream), __VA_ARGS__)
#else
#error "CUDA sources need nvcc, or a test build with -DEDPBENCH_GPU_SIM=ON"
#endif
