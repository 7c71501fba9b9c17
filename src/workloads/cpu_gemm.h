// How the cpu backend spreads one GEMM over its threads (DESIGN §2.1).
//
// C (m x n) = alpha op(A) (m x k) op(B) (k x n) + beta C is cut into one
// part per thread along one dimension, and each part runs on one thread with
// a single-threaded kernel (Eigen or OpenBLAS), so no library thread pool
// ever competes with the backend's OpenMP team:
//  - M or N: each thread owns a block of rows or columns of C;
//  - K: each thread multiplies a slice of the long inner dimension into its
//    own m x n partial and the partials are added in a fixed order. This is
//    what scales for the MLP's x w1 (64 x 15000 times 15000 x 100 at the
//    small size): C is too small to share, K is long, and each thread reads
//    only its half of x and of w1.
// There are more parts than threads (kPartsPerThread each, where the shape
// allows), handed out dynamically: on a shared machine a worker that loses
// its core for a while leaves its parts to the others instead of holding up
// the step. An M or N part packs the whole other operand for itself, so
// those parts are kept long enough for that to stay cheap (512 rows or
// columns where each thread still gets a part: 2 parts at 1024^3 on 2
// threads, 8 of 2500 rows for the MLP's x^T grad_h). The plan is a pure function of the shape and
// the thread count, and each part always lands in the same place (partials are added in part
// order), so results depend on the thread count and never on timing.
#pragma once

#include <cstdint>
#include <string>

namespace edp::cpu {

enum class SplitDim { None, M, N, K };

struct GemmSplit {
  SplitDim dim = SplitDim::None;
  int parts = 1;
};

// A GEMM runs on the calling thread when it has fewer than this many flops
// (2 m n k) and moves fewer than kMinParallelBytes (4 (mk + kn + mn)): waking
// the team costs more than the work. The bytes count because a product with
// a short inner dimension is bound by memory, not by its flops: the weight
// gradient x^T grad_h at batch size 1 (15000 x 1 times 1 x 100) is 3 MFLOP
// but writes 6 MB, and on one thread it made a whole N = 1 training step
// slower than an N = 2 step that was split.
constexpr double kMinParallelFlops = 4e6;
constexpr double kMinParallelBytes = 1 << 20;
constexpr int kPartsPerThread = 4;

GemmSplit plan_gemm_split(int64_t m, int64_t n, int64_t k, int threads);

// [begin, end) of part p of [0, total) cut into `parts` pieces whose starts
// are multiples of `align` (the last piece takes the rest).
struct Range {
  int64_t begin = 0, end = 0;
};
Range part_range(int64_t total, int parts, int p, int64_t align);

std::string to_string(SplitDim d);

}  // namespace edp::cpu
