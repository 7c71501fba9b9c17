#include "workloads/cpu_gemm.h"

#include <algorithm>

namespace edp::cpu {

namespace {

// A part narrower than this along M or N leaves the micro-kernel (16 x 4 to
// 48 x 8 floats with AVX-512) short of work.
constexpr int64_t kMinPartMN = 32;
// Every part of an M (N) split packs all of B (A) again, as its own
// single-threaded GEMM: 1 packed element per 2 x (rows of the part) FLOPs,
// so the parts are at least this long where the team still gets one each.
// At 1024^3 on 2 threads, 8 parts of 128 rows took 10-13% more CPU time than
// 2 of 512 (OpenBLAS 85 against 94 GFLOP per CPU-second, Eigen 71 against
// 77; docs/benchmarks.md); the MLP's long products (thousands of rows) keep
// kPartsPerThread.
constexpr int64_t kMinSharedPart = 512;
// A K slice shorter than this spends too much of its time packing and
// adding its partial.
constexpr int64_t kMinPartK = 512;

}  // namespace

GemmSplit plan_gemm_split(int64_t m, int64_t n, int64_t k, int threads) {
  if (threads < 2 || m <= 0 || n <= 0 || k <= 0) return {};
  const double bytes =
      4.0 * (double(m) * double(k) + double(k) * double(n) + double(m) * double(n));
  if (2.0 * double(m) * double(n) * double(k) < kMinParallelFlops && bytes < kMinParallelBytes)
    return {};
  // Long inner dimension, small C: the extra partials (m n floats per thread)
  // are cheap next to the k-deep products, and the threads read disjoint
  // halves of both operands.
  const int64_t want = int64_t{threads} * kPartsPerThread;
  if (k >= 4 * std::max(m, n) && k / threads >= kMinPartK)
    return {SplitDim::K,
            static_cast<int>(std::max<int64_t>(threads, std::min(want, k / kMinPartK)))};
  // Otherwise share C along its longer side: one part per thread at least
  // (where parts of kMinPartMN allow), more where they stay kMinSharedPart long.
  const int64_t along = std::max(m, n);
  const int64_t most = std::min(want, along / kMinPartMN);
  const int parts =
      static_cast<int>(std::min(most, std::max(along / kMinSharedPart, int64_t{threads})));
  if (parts < 2) return {};
  return {m >= n ? SplitDim::M : SplitDim::N, parts};
}

Range part_range(int64_t total, int parts, int p, int64_t align) {
  if (parts <= 1) return {0, total};
  int64_t per = (total + parts - 1) / parts;
  per = (per + align - 1) / align * align;
  const int64_t b = std::min(total, per * p);
  const int64_t e = p + 1 == parts ? total : std::min(total, b + per);
  return {b, e};
}

std::string to_string(SplitDim d) {
  switch (d) {
    case SplitDim::M:
      return "m";
    case SplitDim::N:
      return "n";
    case SplitDim::K:
      return "k";
    default:
      return "none";
  }
}

}  // namespace edp::cpu
