#include "workloads/cpu_fma_peak.h"

namespace edp {
namespace cpu {

namespace {

#if defined(__AVX512F__)
constexpr int kVectorBytes = 64;
constexpr const char* kIsa = "avx512";
constexpr bool kFused = true;
#elif defined(__AVX2__) && defined(__FMA__)
constexpr int kVectorBytes = 32;
constexpr const char* kIsa = "avx2";
constexpr bool kFused = true;
#elif defined(__aarch64__)
constexpr int kVectorBytes = 16;
constexpr const char* kIsa = "neon";
constexpr bool kFused = true;
#else
constexpr int kVectorBytes = 16;
constexpr const char* kIsa = "sse";  // or any other 128-bit baseline
constexpr bool kFused = false;
#endif

constexpr int kLanes = kVectorBytes / static_cast<int>(sizeof(float));
typedef float Vec __attribute__((vector_size(kVectorBytes)));

// The multiplier and addend are read through volatiles so the compiler cannot
// fold the chain; m < 1 keeps every accumulator bounded (it converges to
// c / (1 - m)), so no overflow or denormal ever slows a lane down.
volatile float g_multiplier = 0.999999f;
volatile float g_addend = 1e-3f;

}  // namespace

double fma_peak_flop_per_worker(int64_t rounds) {
  return 2.0 * kLanes * kFmaAccumulators * static_cast<double>(rounds);
}

float fma_peak_worker(int64_t rounds) {
  const float mf = g_multiplier, cf = g_addend;
  Vec m, c, acc[kFmaAccumulators];
  for (int l = 0; l < kLanes; ++l) {
    m[l] = mf;
    c[l] = cf;
  }
  for (int j = 0; j < kFmaAccumulators; ++j)
    for (int l = 0; l < kLanes; ++l) acc[j][l] = static_cast<float>(j * kLanes + l);
  for (int64_t r = 0; r < rounds; ++r) {
#pragma GCC unroll 12
    for (int j = 0; j < kFmaAccumulators; ++j) acc[j] = acc[j] * m + c;
  }
  Vec total = acc[0];
  for (int j = 1; j < kFmaAccumulators; ++j) total += acc[j];
  float sum = 0.0f;
  for (int l = 0; l < kLanes; ++l) sum += total[l];
  return sum;
}

std::string fma_peak_isa() {
  return std::string(kIsa) + " (" + std::to_string(kLanes) + " lanes, " +
         (kFused ? "fma" : "mul+add") + ", " + std::to_string(kFmaAccumulators) + " accumulators)";
}

int fma_peak_lanes() { return kLanes; }

}  // namespace cpu
}  // namespace edp
