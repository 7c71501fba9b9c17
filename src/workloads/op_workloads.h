// The operator workloads of seed 000 (DESIGN §2.3, §9.1): element-wise maps,
// GEMM, the FMA peak and the cache flush, each a Workload the protocol
// measures like the MLP programs.
//
// Counts per element (n elements of float32; "arrays" is how many n-element
// arrays one step touches, so the working set of a step is arrays x 4 x n
// bytes, which is also what it moves: every array is read or written once).
//
//   op       computes              arrays  FLOP/elem  bytes/elem  nvprof flop_count_sp
//   copy     b = a                  2       0          8           0
//   add      c = a + b              3       1          12          1 (FADD)
//   mul      c = a * b              3       1          12          1 (FMUL)
//   scalar   b = alpha * a          2       1          8           1 (FMUL)
//   sigmoid  b = 1 / (1 + exp(-a))  2       4          8           more (see below)
//   tanh     b = tanh(a)            2       1          8           more (see below)
//   gemm     C = op(A) op(B)        -       2mnk       4(mk+kn+mn) 2mnk (FFMA counts 2)
//   fma_peak register FMA chains    -       2/FMA      0           2 per FFMA
//   flush    fill a 2 x LLC buffer  1       0          4           0
//
// Counting convention: one FLOP per arithmetic operation of the formula, a
// transcendental (exp, tanh) counting as one, as seed 000 and the usual
// operator-level FLOP counters do: sigmoid = negate + exp + add + divide = 4,
// tanh = 1. nvprof's flop_count_sp instead counts the FP32 instructions the
// GPU executed (FADD, FMUL 1, FFMA 2), leaving out the MUFU special-function
// instructions (those are flop_count_sp_special): expf, IEEE division and
// tanhf expand into range reduction, polynomial and Newton steps, so it
// reports several times more than 4 and 1 for sigmoid and tanh (how many
// depends on the CUDA version's libdevice; docs/ops.md). The byte counts are
// compulsory traffic: no write-allocate reads, no cache reuse across steps.
//
// Sizes: `bytes` is the working set of one step (for add, all three arrays);
// the element count is bytes / bytes_per_element, rounded down. gemm takes
// m, n, k (n alone = square); fma_peak takes `rounds` per step.
//
// cold = true flushes the caches before every step (writes a buffer of
// flush_bytes_for(backend), cache_flush.h); the counts stay the op's own.
// The "flush" op is that flush alone, so the study can subtract it.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "workloads/mlp.h"
#include "workloads/workload.h"

namespace edp {

struct OpSpec {
  std::string op;     // one of op_names()
  int64_t bytes = 0;  // element-wise ops and flush: working set of one step (flush: 0 = 2 x LLC)
  int64_t m = 0, n = 0, k = 0;  // gemm: C (m x n) = op(A) (m x k) op(B) (k x n); n alone = square
  bool trans_a = false, trans_b = false;  // gemm: A stored k x m / B stored n x k
  bool cold = false;                      // flush the caches before each step
  int64_t rounds = 0;                     // fma_peak: rounds per step (0 = kFmaPeakRounds)
};

constexpr int64_t kFmaPeakRounds = int64_t{1} << 16;

// copy, add, mul, scalar, sigmoid, tanh, gemm, fma_peak, flush.
const std::vector<std::string>& op_names();

// Per-element counts of the element-wise ops and flush (table above); throws
// std::invalid_argument for gemm, fma_peak or an unknown op.
struct ElementCounts {
  int arrays;
  double flop_per_element;
  double bytes_per_element;
};
ElementCounts element_counts(const std::string& op);

// Throws std::invalid_argument naming the valid ops for an unknown op, and
// for sizes that make no step (bytes below one element, gemm without n).
std::unique_ptr<Workload> make_op_workload(const OpSpec& spec, Backend& backend);

// The float32 bytes a gemm item allocates: A, B and C, as its workload does.
double gemm_bytes(const OpSpec& spec);

// The five GEMMs of one MLP training step (DESIGN §2.1), with the transposes
// the backward pass uses: x w1, h_relu w2, h_relu^T g, g w2^T, x^T grad_h.
// Their FLOPs add up to 4 N D_in H + 6 N H D_out.
std::vector<OpSpec> mlp_gemm_specs(const MlpShape& shape);

}  // namespace edp
