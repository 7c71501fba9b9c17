#include "workloads/cpu_elementwise.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include <Eigen/Core>

#if defined(__SSE2__)
#include <immintrin.h>
#define EDP_STREAMING_STORES 1
#else
#define EDP_STREAMING_STORES 0
#endif

namespace edp {
namespace cpu {

namespace {
using Out = Eigen::Map<Eigen::ArrayXf>;
using In = Eigen::Map<const Eigen::ArrayXf>;

#if EDP_STREAMING_STORES
// 16 KB: the block and the inputs' lines in flight fit a 32-48 KB L1.
constexpr int64_t kStreamBlock = 4096;
// One per thread, shared by every kernel (a static inside the template would
// give each instantiation its own).
alignas(64) thread_local float stream_buffer[kStreamBlock];

// dst[0, n) = src[0, n) with non-temporal stores; dst is 64-byte aligned
// and n a multiple of 16.
void stream_store(float* dst, const float* src, int64_t n) {
  for (int64_t i = 0; i < n; i += 16) {
#if defined(__AVX512F__)
    _mm512_stream_ps(dst + i, _mm512_load_ps(src + i));
#elif defined(__AVX__)
    _mm256_stream_ps(dst + i, _mm256_load_ps(src + i));
    _mm256_stream_ps(dst + i + 8, _mm256_load_ps(src + i + 8));
#else
    for (int k = 0; k < 16; k += 4) _mm_stream_ps(dst + i + k, _mm_load_ps(src + i + k));
#endif
  }
}
#endif

// out[0, n) = f(offset, length) for the chunk, where `compute(dst, offset,
// length)` evaluates the expression for elements [offset, offset + length)
// into dst. Streamed: the unaligned head and the tail in place, the body
// block by block through an L1 buffer, then a store fence so the other
// workers and the caller see every streamed line once the team joins.
template <class Compute>
void write_out(float* out, int64_t n, bool stream, Compute compute) {
#if EDP_STREAMING_STORES
  if (stream && n >= 2 * kStreamBlock) {
    const auto addr = reinterpret_cast<std::uintptr_t>(out);
    if (addr % sizeof(float) == 0) {
      const int64_t head =
          std::min<int64_t>(n, static_cast<int64_t>((64 - addr % 64) % 64 / sizeof(float)));
      if (head) compute(out, 0, head);
      float* buffer = stream_buffer;
      int64_t i = head;
      for (; i + kStreamBlock <= n; i += kStreamBlock) {
        compute(buffer, i, kStreamBlock);
        stream_store(out + i, buffer, kStreamBlock);
      }
      if (i < n) compute(out + i, i, n - i);
      _mm_sfence();
      return;
    }
  }
#else
  (void)stream;
#endif
  compute(out, 0, n);
}

}  // namespace

bool streaming_stores_available() { return EDP_STREAMING_STORES != 0; }

void copy_chunk(const float* src, float* dst, int64_t n, bool stream) {
  write_out(dst, n, stream,
            [&](float* d, int64_t o, int64_t len) { Out(d, len) = In(src + o, len); });
}

void add_chunk(const float* a, const float* b, float* out, int64_t n, bool stream) {
  write_out(out, n, stream, [&](float* d, int64_t o, int64_t len) {
    Out(d, len) = In(a + o, len) + In(b + o, len);
  });
}

void mul_chunk(const float* a, const float* b, float* out, int64_t n, bool stream) {
  write_out(out, n, stream, [&](float* d, int64_t o, int64_t len) {
    Out(d, len) = In(a + o, len) * In(b + o, len);
  });
}

void scale_chunk(const float* x, float alpha, float* out, int64_t n, bool stream) {
  write_out(out, n, stream,
            [&](float* d, int64_t o, int64_t len) { Out(d, len) = alpha * In(x + o, len); });
}

// 1 / (1 + exp(-x)) on Eigen's vectorised exp (within 2 ulp), not Eigen's
// logistic(), whose rational approximation is thousands of ulp off where
// sigmoid is small (x < -5); exp(+inf) = inf gives 0 at x = -inf.
void sigmoid_chunk(const float* x, float* out, int64_t n, bool stream) {
  write_out(out, n, stream, [&](float* d, int64_t o, int64_t len) {
    Out(d, len) = (1.0f + (-In(x + o, len)).exp()).inverse();
  });
}

void tanh_chunk(const float* x, float* out, int64_t n, bool stream) {
  write_out(out, n, stream,
            [&](float* d, int64_t o, int64_t len) { Out(d, len) = In(x + o, len).tanh(); });
}

}  // namespace cpu
}  // namespace edp
