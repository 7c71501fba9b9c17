// The CPU backend's element-wise kernels (DESIGN §2.3) on one contiguous
// chunk: CpuBackend splits a tensor into one chunk per pinned worker and
// calls these from each. Eigen array expressions, so they vectorise with
// whatever SIMD the build targets (NEON on the Jetsons, SSE/AVX/AVX-512 on
// x86).
//
// `stream`: the caller sets it when the operation's working set is larger
// than the last-level cache (CpuBackend: stream_min_bytes). The output then
// goes out with non-temporal stores on x86: an ordinary store first reads
// the destination line from DRAM (read for ownership), so a copy moves 12
// bytes per float instead of 8 and an add 16 instead of 12. Each block is
// computed into a buffer that stays in L1 and streamed from there. On
// AArch64 it changes nothing: the Cortex-A57 and Denver L1 caches detect a
// stream of full-line writes and stop allocating on their own ("write
// streaming mode", Cortex-A57 TRM r1p3, §6.4.5 / L1 data memory system).
#pragma once

#include <cstdint>

namespace edp {
namespace cpu {

void copy_chunk(const float* src, float* dst, int64_t n, bool stream = false);
void add_chunk(const float* a, const float* b, float* out, int64_t n, bool stream = false);
void mul_chunk(const float* a, const float* b, float* out, int64_t n, bool stream = false);
void scale_chunk(const float* x, float alpha, float* out, int64_t n, bool stream = false);
// Within a few ulp of the correctly rounded value (tests/workloads/
// test_backend_ops.cpp); NaN stays NaN, +-inf saturate.
void sigmoid_chunk(const float* x, float* out, int64_t n, bool stream = false);
void tanh_chunk(const float* x, float* out, int64_t n, bool stream = false);

// Whether `stream` does anything in this build (x86 with SSE).
bool streaming_stores_available();

}  // namespace cpu
}  // namespace edp
