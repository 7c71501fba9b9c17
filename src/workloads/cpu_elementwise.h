// The CPU backend's operator kernels (DESIGN §2.3) on one contiguous chunk:
// CpuBackend splits a tensor into one chunk per pinned worker and calls these
// from each. Eigen array expressions, so they vectorise with whatever SIMD the
// build targets (NEON on the Jetsons, SSE/AVX/AVX-512 on x86).
#pragma once

#include <cstdint>

namespace edp {
namespace cpu {

void add_chunk(const float* a, const float* b, float* out, int64_t n);
// Within a few ulp of the correctly rounded value (tests/workloads/
// test_backend_ops.cpp); NaN stays NaN, +-inf saturate.
void sigmoid_chunk(const float* x, float* out, int64_t n);
void tanh_chunk(const float* x, float* out, int64_t n);

}  // namespace cpu
}  // namespace edp
