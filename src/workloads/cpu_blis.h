// BLIS as one of the cpu backend's single-threaded GEMM kernels (DESIGN §2.1,
// `gemm: blis`; `gemm: auto` measures it against Eigen and OpenBLAS).
//
// Why a third kernel: on a Zen 4 core, BLIS 0.9's micro-kernels ran the
// per-thread parts of the medium MLP's two long GEMMs (192x300x2500 and
// 2500x300x192 tA) at 104 GFLOP/s against OpenBLAS 0.3.21's 95
// (docs/benchmarks.md). The backend keeps splitting each GEMM over its own
// team (workloads/cpu_gemm.h); BLIS runs one part on the calling thread.
//
// blis.h is seen by cpu_blis.cpp alone: BLIS ships its own cblas.h and
// exports cblas_sgemm, which must stay OpenBLAS's for `gemm: openblas`.
#pragma once

#include <cstdint>
#include <map>
#include <string>

namespace edp::cpu {

// Why the BLIS path cannot be used here, or "" when it can: the build has
// no BLIS, or BLIS_ARCH_TYPE is set (BLIS aborts the process on a value its
// build lacks, so edpbench does not load its kernels then).
std::string blis_unusable_reason();

// Whether the BLIS path can be used: blis_unusable_reason() is empty.
bool blis_available();

// C (m x n, row stride ldc) = alpha op(A) op(B) + beta C on the calling
// thread, row-major as cblas_sgemm takes it: op(A) is m x k (A stored k x m
// when trans_a), op(B) k x n (B stored n x k when trans_b). With beta = 0, C
// is not read (it may hold NaN: tests/workloads/test_cpu_blis.cpp).
// Throws std::logic_error in a build without BLIS; BLIS itself reports
// errors by ending the process (bli_abort), never by an exception.
void blis_sgemm(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, float alpha,
                const float* a, int64_t lda, const float* b, int64_t ldb, float beta, float* c,
                int64_t ldc);

// For context.json: blis_version, blis_arch (the sub-configuration BLIS
// chose for this CPU at run time, e.g. "zen3", "haswell", "cortexa57") and
// blis_threading (the variant the system's libblis.so.4 is: serial, openmp
// or pthreads; each is run with one thread per call). Where the build has
// BLIS but cannot use it, "blis": the reason. Empty without BLIS.
std::map<std::string, std::string> blis_facts();

}  // namespace edp::cpu
