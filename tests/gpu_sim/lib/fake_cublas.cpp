// GPU simulator: cuBLAS (cublas_v2.h), after the cuBLAS documentation.
//
// cublasSgemm ("cublas<t>gemm()"): C = alpha op(A) op(B) + beta C in
// column-major storage, op(A) m x k, op(B) k x n, C m x n. Return values, as
// documented: CUBLAS_STATUS_NOT_INITIALIZED for a handle that is not live;
// CUBLAS_STATUS_INVALID_VALUE "if m < 0 or n < 0 or k < 0, or if transa and
// transb are not one of CUBLAS_OP_N, CUBLAS_OP_C, CUBLAS_OP_T, or if
// lda < max(1, m) when transa == CUBLAS_OP_N and lda < max(1, k) otherwise, or
// if ldb < max(1, k) when transb == CUBLAS_OP_N and ldb < max(1, n) otherwise,
// or if ldc < max(1, m), or if alpha or beta == NULL". "When beta == 0, C does
// not have to be a valid input": it is not read (a NaN there stays out).
//
// Beyond the documented checks, what a GPU would fault on: every operand
// (lda x columns, column-major) must lie inside one allocation (else
// CUBLAS_STATUS_EXECUTION_FAILED, as a kernel's illegal address would give),
// and alpha/beta must be host pointers in CUBLAS_POINTER_MODE_HOST ("Pointer
// Mode") and device pointers in CUBLAS_POINTER_MODE_DEVICE. The arithmetic is
// Eigen's (float accumulation, any order: within the same rounding bound as
// cuBLAS); the tests never compare bits of a GEMM.
// Faults injected with edp_sim::inject_fault("cublasCreate" / "cublasSetStream" /
// "cublasSgemm", status) are returned as the call's status, before any check.
#include <Eigen/Core>
#include <map>
#include <set>
#include <string>

#include "cublas_v2.h"
#include "fake_handles.h"
#include "fake_memory.h"
#include "fake_state.h"
#include "fake_stream.h"

using namespace edp_sim;

struct cublasContext {
  int device = 0;
  cudaStream_t stream = nullptr;
  cublasPointerMode_t pointer_mode = CUBLAS_POINTER_MODE_HOST;
  cublasMath_t math = CUBLAS_DEFAULT_MATH;
};

namespace {

std::set<cublasContext*>& handles() {
  // Never destroyed: device state outlives every static destructor (and
  // LeakSanitizer, which runs after them, still sees it reachable).
  static auto* h = new std::set<cublasContext*>;
  return *h;
}

bool live(cublasHandle_t h) { return h != nullptr && handles().count(h) > 0; }

using Matrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::ColMajor>;
using ConstMap = Eigen::Map<const Matrix, 0, Eigen::OuterStride<>>;
using MutMap = Eigen::Map<Matrix, 0, Eigen::OuterStride<>>;

bool valid_op(cublasOperation_t op) {
  return op == CUBLAS_OP_N || op == CUBLAS_OP_T || op == CUBLAS_OP_C;
}

int max1(int v) { return v > 1 ? v : 1; }

// Elements spanned by a rows x cols column-major matrix with leading
// dimension ld.
std::size_t extent(int rows, int cols, int ld) {
  if (rows == 0 || cols == 0) return 0;
  return (static_cast<std::size_t>(cols) - 1) * static_cast<std::size_t>(ld) +
         static_cast<std::size_t>(rows);
}

bool operand_ok(const char* name, const float* p, int rows, int cols, int ld) {
  const std::size_t bytes = extent(rows, cols, ld) * sizeof(float);
  if (bytes == 0 || allocation_of(p, bytes) != nullptr) return true;
  diagnose("cublasSgemm: operand %s (%d x %d, ld %d, column-major): %s", name, rows, cols, ld,
           explain_range(p, bytes).c_str());
  return false;
}

}  // namespace

namespace edp_sim {
void destroy_cublas_handles(int device) {
  for (auto it = handles().begin(); it != handles().end();) {
    if ((*it)->device == device) {
      delete *it;
      it = handles().erase(it);
    } else {
      ++it;
    }
  }
}
}  // namespace edp_sim

extern "C" {

cublasStatus_t cublasCreate(cublasHandle_t* handle) {
  Guard lock(api_lock());
  {
    int injected = 0;  // edp_sim::inject_fault
    if (injected_fault("cublasCreate", &injected)) return static_cast<cublasStatus_t>(injected);
  }
  if (handle == nullptr) return CUBLAS_STATUS_INVALID_VALUE;
  ensure_context(current_device());
  auto* h = new cublasContext;
  h->device = current_device();
  handles().insert(h);
  *handle = h;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasDestroy(cublasHandle_t handle) {
  Guard lock(api_lock());
  if (!live(handle)) return CUBLAS_STATUS_NOT_INITIALIZED;
  handles().erase(handle);
  delete handle;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasSetStream(cublasHandle_t handle, cudaStream_t stream) {
  Guard lock(api_lock());
  {
    int injected = 0;  // edp_sim::inject_fault
    if (injected_fault("cublasSetStream", &injected)) return static_cast<cublasStatus_t>(injected);
  }
  if (!live(handle)) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (!valid_stream(stream)) return CUBLAS_STATUS_INVALID_VALUE;
  handle->stream = stream;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasSetPointerMode(cublasHandle_t handle, cublasPointerMode_t mode) {
  Guard lock(api_lock());
  if (!live(handle)) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (mode != CUBLAS_POINTER_MODE_HOST && mode != CUBLAS_POINTER_MODE_DEVICE) {
    return CUBLAS_STATUS_INVALID_VALUE;
  }
  handle->pointer_mode = mode;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasSetMathMode(cublasHandle_t handle, cublasMath_t mode) {
  Guard lock(api_lock());
  if (!live(handle)) return CUBLAS_STATUS_NOT_INITIALIZED;
  // CUBLAS_PEDANTIC_MATH and CUBLAS_TF32_TENSOR_OP_MATH exist from CUDA 11.
  const bool known =
      mode == CUBLAS_DEFAULT_MATH || mode == CUBLAS_TENSOR_OP_MATH ||
      (version() >= 11000 && (mode == CUBLAS_PEDANTIC_MATH || mode == CUBLAS_TF32_TENSOR_OP_MATH));
  if (!known) return CUBLAS_STATUS_INVALID_VALUE;
  handle->math = mode;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasGetProperty(libraryPropertyType type, int* value) {
  if (value == nullptr) return CUBLAS_STATUS_INVALID_VALUE;
  const int v = version();
  switch (type) {
    case MAJOR_VERSION:
      *value = v / 1000;
      return CUBLAS_STATUS_SUCCESS;
    case MINOR_VERSION:
      *value = v % 1000 / 10;
      return CUBLAS_STATUS_SUCCESS;
    case PATCH_LEVEL:
      *value = 0;
      return CUBLAS_STATUS_SUCCESS;
  }
  return CUBLAS_STATUS_INVALID_VALUE;
}

cublasStatus_t cublasSgemm(cublasHandle_t handle, cublasOperation_t transa,
                           cublasOperation_t transb, int m, int n, int k, const float* alpha,
                           const float* A, int lda, const float* B, int ldb, const float* beta,
                           float* C, int ldc) {
  Guard lock(api_lock());
  {
    int injected = 0;  // edp_sim::inject_fault
    if (injected_fault("cublasSgemm", &injected)) return static_cast<cublasStatus_t>(injected);
  }
  if (!live(handle)) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (m < 0 || n < 0 || k < 0 || !valid_op(transa) || !valid_op(transb)) {
    return CUBLAS_STATUS_INVALID_VALUE;
  }
  const bool a_plain = transa == CUBLAS_OP_N, b_plain = transb == CUBLAS_OP_N;
  if (lda < max1(a_plain ? m : k) || ldb < max1(b_plain ? k : n) || ldc < max1(m)) {
    diagnose(
        "cublasSgemm(m=%d, n=%d, k=%d, transa=%d, transb=%d): lda=%d ldb=%d ldc=%d break "
        "lda >= max(1, %s), ldb >= max(1, %s), ldc >= max(1, m)",
        m, n, k, transa, transb, lda, ldb, ldc, a_plain ? "m" : "k", b_plain ? "k" : "n");
    return CUBLAS_STATUS_INVALID_VALUE;
  }
  if (alpha == nullptr || beta == nullptr) return CUBLAS_STATUS_INVALID_VALUE;
  const bool device_scalars = handle->pointer_mode == CUBLAS_POINTER_MODE_DEVICE;
  for (const float* s : {alpha, beta}) {
    const bool on_device = is_device_pointer(s);
    if (on_device != device_scalars) {
      diagnose("cublasSgemm: scalar %p is %s memory, but the pointer mode is %s",
               static_cast<const void*>(s), on_device ? "device" : "host",
               device_scalars ? "DEVICE" : "HOST");
      return CUBLAS_STATUS_INVALID_VALUE;
    }
  }
  if (m == 0 || n == 0) return CUBLAS_STATUS_SUCCESS;  // quick return
  // Stored shapes (column-major): A is m x k or k x m, B is k x n or n x k.
  if (k > 0 && (!operand_ok("A", A, a_plain ? m : k, a_plain ? k : m, lda) ||
                !operand_ok("B", B, b_plain ? k : n, b_plain ? n : k, ldb))) {
    return CUBLAS_STATUS_EXECUTION_FAILED;
  }
  if (!operand_ok("C", C, m, n, ldc)) return CUBLAS_STATUS_EXECUTION_FAILED;
  // Host-mode scalars are read at the call, device-mode ones when it runs.
  const float host_alpha = device_scalars ? 0.0f : *alpha;
  const float host_beta = device_scalars ? 0.0f : *beta;
  auto run = [=]() {
    const float a = device_scalars ? *alpha : host_alpha;
    const float b = device_scalars ? *beta : host_beta;
    MutMap c(C, m, n, Eigen::OuterStride<>(ldc));
    if (b == 0.0f) {
      c.setZero();  // C is not read
    } else if (b != 1.0f) {
      c *= b;
    }
    if (k == 0 || a == 0.0f) return;
    ConstMap ma(A, a_plain ? m : k, a_plain ? k : m, Eigen::OuterStride<>(lda));
    ConstMap mb(B, b_plain ? k : n, b_plain ? n : k, Eigen::OuterStride<>(ldb));
    if (a_plain && b_plain) {
      c.noalias() += a * (ma * mb);
    } else if (a_plain) {
      c.noalias() += a * (ma * mb.transpose());
    } else if (b_plain) {
      c.noalias() += a * (ma.transpose() * mb);
    } else {
      c.noalias() += a * (ma.transpose() * mb.transpose());
    }
  };
  if (enqueue(handle->stream, "cublasSgemm", run) != cudaSuccess) {
    return CUBLAS_STATUS_EXECUTION_FAILED;
  }
  return CUBLAS_STATUS_SUCCESS;
}

}  // extern "C"
