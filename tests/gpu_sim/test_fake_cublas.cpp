// The fake cublasSgemm on its own: every argument rule of the cuBLAS
// documentation ("cublas<t>gemm()"), column-major arithmetic with leading
// dimensions larger than the rows, beta == 0 not reading C, operands checked
// against their allocation, host/device pointer mode.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <vector>

#include "cublas_v2.h"
#include "edp_sim/control.h"
#include "sim_test_support.h"

using edp_sim_test::DeviceFloats;
using edp_sim_test::download;
using edp_sim_test::upload;

namespace {

struct Handle {
  cublasHandle_t h = nullptr;
  Handle() { REQUIRE(cublasCreate(&h) == CUBLAS_STATUS_SUCCESS); }
  ~Handle() { cublasDestroy(h); }
};

}  // namespace

TEST_CASE("fake cublasSgemm computes column-major op(A) op(B) with leading dimensions",
          "[gpu_sim][cublas]") {
  edp_sim::reset_all();
  Handle handle;
  const int m = 5, n = 4, k = 3;
  const cublasOperation_t ops[] = {CUBLAS_OP_N, CUBLAS_OP_T};
  for (cublasOperation_t ta : ops) {
    for (cublasOperation_t tb : ops) {
      INFO("transa " << ta << " transb " << tb);
      const int a_rows = ta == CUBLAS_OP_N ? m : k, a_cols = ta == CUBLAS_OP_N ? k : m;
      const int b_rows = tb == CUBLAS_OP_N ? k : n, b_cols = tb == CUBLAS_OP_N ? n : k;
      const int lda = a_rows + 2, ldb = b_rows + 1, ldc = m + 3;  // padded columns
      std::vector<float> a(static_cast<std::size_t>(lda * a_cols)),
          b(static_cast<std::size_t>(ldb * b_cols)), c(static_cast<std::size_t>(ldc * n), 1.0f);
      for (std::size_t i = 0; i < a.size(); ++i) a[i] = static_cast<float>(i % 7) - 3.0f;
      for (std::size_t i = 0; i < b.size(); ++i) b[i] = static_cast<float>(i % 5) * 0.5f;
      DeviceFloats da(a.size()), db(b.size()), dc(c.size());
      upload(da, a), upload(db, b), upload(dc, c);
      const float alpha = 2.0f, beta = -1.0f;
      REQUIRE(cublasSgemm(handle.h, ta, tb, m, n, k, &alpha, da.get(), lda, db.get(), ldb, &beta,
                          dc.get(), ldc) == CUBLAS_STATUS_SUCCESS);
      const auto got = download(dc, c.size());
      for (int j = 0; j < n; ++j) {
        for (int i = 0; i < ldc; ++i) {
          float want = 1.0f;  // padding rows untouched
          if (i < m) {
            float acc = 0.0f;
            for (int p = 0; p < k; ++p) {
              const float av = ta == CUBLAS_OP_N ? a[i + p * lda] : a[p + i * lda];
              const float bv = tb == CUBLAS_OP_N ? b[p + j * ldb] : b[j + p * ldb];
              acc += av * bv;  // small integers and halves: exact in any order
            }
            want = alpha * acc + beta * 1.0f;
          }
          CHECK(got[static_cast<std::size_t>(i + j * ldc)] == want);
        }
      }
    }
  }
}

TEST_CASE("fake cublasSgemm enforces the documented argument rules", "[gpu_sim][cublas]") {
  edp_sim::reset_all();
  Handle handle;
  DeviceFloats a(64), b(64), c(64);
  const float one = 1.0f, zero = 0.0f;
  auto gemm = [&](cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k, int lda, int ldb,
                  int ldc, const float* alpha = nullptr, const float* beta = nullptr) {
    return cublasSgemm(handle.h, ta, tb, m, n, k, alpha ? alpha : &one, a.get(), lda, b.get(), ldb,
                       beta ? beta : &zero, c.get(), ldc);
  };
  const auto N = CUBLAS_OP_N, T = CUBLAS_OP_T;
  CHECK(gemm(N, N, 4, 3, 2, 4, 2, 4) == CUBLAS_STATUS_SUCCESS);
  CHECK(gemm(N, N, -1, 3, 2, 4, 2, 4) == CUBLAS_STATUS_INVALID_VALUE);
  CHECK(gemm(N, N, 4, -1, 2, 4, 2, 4) == CUBLAS_STATUS_INVALID_VALUE);
  CHECK(gemm(N, N, 4, 3, -1, 4, 2, 4) == CUBLAS_STATUS_INVALID_VALUE);
  CHECK(gemm(static_cast<cublasOperation_t>(3), N, 4, 3, 2, 4, 2, 4) ==
        CUBLAS_STATUS_INVALID_VALUE);
  // 3 (CUBLAS_OP_CONJG in cuBLAS's header, which cublasSgemm refuses) is the one
  // value beyond N, T and C that C++ can form: the enum spans 0-3.
  CHECK(gemm(N, static_cast<cublasOperation_t>(3), 4, 3, 2, 4, 2, 4) ==
        CUBLAS_STATUS_INVALID_VALUE);
  // lda >= max(1, m) for N, max(1, k) for T; ldb >= max(1, k) for N, max(1, n) for T.
  CHECK(gemm(N, N, 4, 3, 2, 3, 2, 4) == CUBLAS_STATUS_INVALID_VALUE);
  CHECK(gemm(T, N, 4, 3, 2, 2, 2, 4) == CUBLAS_STATUS_SUCCESS);
  CHECK(gemm(T, N, 4, 3, 2, 1, 2, 4) == CUBLAS_STATUS_INVALID_VALUE);
  CHECK(gemm(N, N, 4, 3, 2, 4, 1, 4) == CUBLAS_STATUS_INVALID_VALUE);
  CHECK(gemm(N, T, 4, 3, 2, 4, 3, 4) == CUBLAS_STATUS_SUCCESS);
  CHECK(gemm(N, T, 4, 3, 2, 4, 2, 4) == CUBLAS_STATUS_INVALID_VALUE);
  CHECK(gemm(N, N, 4, 3, 2, 4, 2, 3) == CUBLAS_STATUS_INVALID_VALUE);  // ldc >= max(1, m)
  CHECK(gemm(N, N, 0, 0, 0, 0, 0, 0) == CUBLAS_STATUS_INVALID_VALUE);  // max(1, .) even when 0
  CHECK(gemm(N, N, 0, 0, 0, 1, 1, 1) == CUBLAS_STATUS_SUCCESS);
  CHECK(cublasSgemm(handle.h, N, N, 4, 3, 2, nullptr, a.get(), 4, b.get(), 2, &zero, c.get(), 4) ==
        CUBLAS_STATUS_INVALID_VALUE);
  // Operands past their allocation (64 floats): C of 8 x 9 with ldc 8 needs 72.
  CHECK(gemm(N, N, 8, 9, 1, 8, 1, 8) == CUBLAS_STATUS_EXECUTION_FAILED);
  CHECK(gemm(N, N, 8, 8, 9, 8, 9, 8) == CUBLAS_STATUS_EXECUTION_FAILED);  // A: 8 x 9, ld 8
  // Pointer mode: host scalars in HOST mode, device scalars in DEVICE mode.
  DeviceFloats scalars(2);
  CHECK(gemm(N, N, 4, 3, 2, 4, 2, 4, scalars.get(), scalars.get() + 1) ==
        CUBLAS_STATUS_INVALID_VALUE);
  REQUIRE(cublasSetPointerMode(handle.h, CUBLAS_POINTER_MODE_DEVICE) == CUBLAS_STATUS_SUCCESS);
  CHECK(gemm(N, N, 4, 3, 2, 4, 2, 4) == CUBLAS_STATUS_INVALID_VALUE);
  CHECK(gemm(N, N, 4, 3, 2, 4, 2, 4, scalars.get(), scalars.get() + 1) == CUBLAS_STATUS_SUCCESS);
  // cublasPointerMode_t has no value but HOST and DEVICE that C++ can form (an
  // enum spans its enumerators' bits): the fake's check of it is for C callers.
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  // A destroyed handle.
  cublasHandle_t gone = nullptr;
  REQUIRE(cublasCreate(&gone) == CUBLAS_STATUS_SUCCESS);
  REQUIRE(cublasDestroy(gone) == CUBLAS_STATUS_SUCCESS);
  CHECK(cublasSgemm(gone, N, N, 1, 1, 1, &one, a.get(), 1, b.get(), 1, &zero, c.get(), 1) ==
        CUBLAS_STATUS_NOT_INITIALIZED);
}

TEST_CASE("fake cublasSgemm with beta 0 does not read C and runs on the handle's stream",
          "[gpu_sim][cublas]") {
  edp_sim::reset_all();
  Handle handle;
  cudaStream_t s = nullptr;
  REQUIRE(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) == cudaSuccess);
  REQUIRE(cublasSetStream(handle.h, s) == CUBLAS_STATUS_SUCCESS);
  DeviceFloats a(4), b(4), c(4);
  upload(a, {1, 2, 3, 4});
  upload(b, {1, 0, 0, 1});
  upload(c, std::vector<float>(4, std::numeric_limits<float>::quiet_NaN()));
  const float one = 1.0f, zero = 0.0f;
  REQUIRE(cublasSgemm(handle.h, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2, &one, a.get(), 2, b.get(), 2,
                      &zero, c.get(), 2) == CUBLAS_STATUS_SUCCESS);
  CHECK(edp_sim::pending_operations() == 1);  // queued on s, not run
  REQUIRE(cudaStreamSynchronize(s) == cudaSuccess);
  CHECK(download(c, 4) == std::vector<float>{1, 2, 3, 4});
  REQUIRE(cudaStreamDestroy(s) == cudaSuccess);
}
