#include "workloads/cpu_blis.h"

#include <cstdlib>
#include <stdexcept>

#include "edpbench/config.h"

#if EDPBENCH_HAVE_BLIS
#include <blis.h>
#endif

namespace edp::cpu {

std::string blis_unusable_reason() {
  if (EDPBENCH_HAVE_BLIS == 0)
    return "this build has no BLIS (install libblis-serial-dev and reconfigure)";
  // BLIS reads BLIS_ARCH_TYPE when it first picks its kernels and ends the
  // process (bli_abort) on a value its build lacks (0.9: "Invalid
  // architecture id value" for 99), and in 0.9 even on a valid id read
  // before bli_init. Its value cannot be checked without BLIS, so edpbench
  // does not load BLIS's kernels then, and a sweep on Eigen or OpenBLAS is
  // not killed by it.
  const char* arch = std::getenv("BLIS_ARCH_TYPE");
  if (arch != nullptr && *arch != '\0')
    return std::string("BLIS_ARCH_TYPE is set in the environment ('") + arch +
           "'): BLIS ends the process on a value its build lacks, so edpbench leaves BLIS "
           "alone; unset BLIS_ARCH_TYPE to use gemm: blis";
  return "";
}

bool blis_available() { return blis_unusable_reason().empty(); }

#if EDPBENCH_HAVE_BLIS

void blis_sgemm(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, float alpha,
                const float* a, int64_t lda, const float* b, int64_t ldb, float beta, float* c,
                int64_t ldc) {
  // One thread, whatever the variant the system's libblis.so.4 points at
  // (Debian's alternatives may select the pthread or OpenMP build, which
  // read BLIS_NUM_THREADS and OMP_NUM_THREADS): the backend's team already
  // covers the CPUs. bli_rntm_init_from_global and bli_rntm_set_num_threads
  // exist from BLIS 0.9 to 2.x (bli_rntm_init changed meaning in 1.0). BLIS
  // is thread-safe in every variant ("Does BLIS support multithreading?",
  // docs/FAQ.md: pthreads features are used for thread safety whatever the
  // configured threading), so the team's threads may call it at once.
  rntm_t rntm;
  bli_rntm_init_from_global(&rntm);
  bli_rntm_set_num_threads(1, &rntm);
  // The typed API takes each matrix as stored, with a row and a column
  // stride, and applies the transposition (docs/BLISTypedAPI.md, gemm):
  // row-major storage is row stride = leading dimension, column stride 1.
  // It takes non-const pointers but does not write A, B, alpha or beta.
  bli_sgemm_ex(trans_a ? BLIS_TRANSPOSE : BLIS_NO_TRANSPOSE,
               trans_b ? BLIS_TRANSPOSE : BLIS_NO_TRANSPOSE, m, n, k, &alpha, const_cast<float*>(a),
               lda, 1, const_cast<float*>(b), ldb, 1, &beta, c, ldc, 1, nullptr, &rntm);
}

std::map<std::string, std::string> blis_facts() {
  if (const std::string why = blis_unusable_reason(); !why.empty()) return {{"blis", why}};
  bli_init();  // before bli_arch_query_id (BLIS 0.9 aborts on a forced arch otherwise)
  const char* threading = bli_info_get_enable_openmp()     ? "openmp"
                          : bli_info_get_enable_pthreads() ? "pthreads"
                                                           : "serial";
  return {{"blis_version", bli_info_get_version_str()},
          {"blis_arch", bli_arch_string(bli_arch_query_id())},
          {"blis_threading", std::string(threading) + " build, run with 1 thread per call"}};
}

#else

void blis_sgemm(bool, bool, int64_t, int64_t, int64_t, float, const float*, int64_t, const float*,
                int64_t, float, float*, int64_t) {
  throw std::logic_error("cpu gemm: this build has no BLIS");
}

std::map<std::string, std::string> blis_facts() { return {}; }

#endif

}  // namespace edp::cpu
