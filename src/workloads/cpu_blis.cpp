#include "workloads/cpu_blis.h"

#include <stdexcept>

#include "edpbench/config.h"

#if EDPBENCH_HAVE_BLIS
#include <blis.h>
#endif

namespace edp::cpu {

bool blis_available() { return EDPBENCH_HAVE_BLIS != 0; }

#if EDPBENCH_HAVE_BLIS

void blis_sgemm(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, float alpha,
                const float* a, int64_t lda, const float* b, int64_t ldb, float beta, float* c,
                int64_t ldc) {
  // One thread, whatever the variant the system's libblis.so.4 points at
  // (Debian's alternatives may select the pthread or OpenMP build, which
  // read BLIS_NUM_THREADS): the backend's team already covers the CPUs. BLIS
  // is thread-safe in every variant ("Does BLIS support multithreading?",
  // docs/FAQ.md: pthreads features are used for thread safety whatever the
  // configured threading), so the team's threads may call it at once.
  rntm_t rntm;
  bli_rntm_init(&rntm);  // not BLIS_RNTM_INITIALIZER: C99 designators are not C++17
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
  return {{"blis_version", bli_info_get_version_str()},
          {"blis_arch", bli_arch_string(bli_arch_query_id())}};
}

#else

void blis_sgemm(bool, bool, int64_t, int64_t, int64_t, float, const float*, int64_t, const float*,
                int64_t, float, float*, int64_t) {
  throw std::logic_error("cpu gemm: this build has no BLIS");
}

std::map<std::string, std::string> blis_facts() { return {}; }

#endif

}  // namespace edp::cpu
