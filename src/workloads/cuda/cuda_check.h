// CUDA_CHECK_THROW: every CUDA runtime, cuBLAS and cuDNN call goes through it,
// so a failure (out of memory included) becomes a std::runtime_error that the
// runner can catch, mark the configuration failed, and go on. The message names
// the call, the library's error text, and where it happened:
//   "cudaMalloc(16777216 bytes) failed: out of memory (device_pool.cpp:61)".
// Included by .cu files too, so it stays C++14.
#pragma once

#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include <stdexcept>
#include <string>

#include "edpbench/config.h"

#if EDPBENCH_HAVE_CUDNN
#include <cudnn.h>
#endif

namespace edp {
namespace cuda {

class CudaError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// cublasGetStatusString only exists from CUDA 11.4 on; JetPack 4 has 10.2.
const char* cublas_status_name(cublasStatus_t status);

[[noreturn]] void throw_error(const std::string& call, const std::string& what, const char* file,
                              int line);

// One overload per library; each is a no-op on success.
void check(cudaError_t status, const char* call, const char* file, int line);
void check(cublasStatus_t status, const char* call, const char* file, int line);
#if EDPBENCH_HAVE_CUDNN
void check(cudnnStatus_t status, const char* call, const char* file, int line);
#endif

}  // namespace cuda
}  // namespace edp

#define CUDA_CHECK_THROW(call) ::edp::cuda::check((call), #call, __FILE__, __LINE__)
