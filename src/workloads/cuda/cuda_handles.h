// Move-only owners of CUDA, cuBLAS and cuDNN handles: std::unique_ptr over the
// handle's pointee with a deleter that calls the library's destroy function
// (errors from destroy are ignored: it runs in destructors, possibly while the
// driver unloads at exit).
#pragma once

#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include <memory>
#include <type_traits>

#include "edpbench/config.h"

#if EDPBENCH_HAVE_CUDNN
#include <cudnn.h>
#endif

namespace edp {
namespace cuda {

template <class Handle, class Status, Status (*Destroy)(Handle)>
struct HandleDeleter {
  void operator()(Handle h) const noexcept { (void)Destroy(h); }
};

template <class Handle, class Status, Status (*Destroy)(Handle)>
using UniqueHandle =
    std::unique_ptr<std::remove_pointer_t<Handle>, HandleDeleter<Handle, Status, Destroy>>;

using UniqueStream = UniqueHandle<cudaStream_t, cudaError_t, &cudaStreamDestroy>;
using UniqueEvent = UniqueHandle<cudaEvent_t, cudaError_t, &cudaEventDestroy>;
using UniqueCublas = UniqueHandle<cublasHandle_t, cublasStatus_t, &cublasDestroy>;

#if EDPBENCH_HAVE_CUDNN
using UniqueCudnn = UniqueHandle<cudnnHandle_t, cudnnStatus_t, &cudnnDestroy>;
using UniqueTensorDescriptor =
    UniqueHandle<cudnnTensorDescriptor_t, cudnnStatus_t, &cudnnDestroyTensorDescriptor>;
using UniqueActivationDescriptor =
    UniqueHandle<cudnnActivationDescriptor_t, cudnnStatus_t, &cudnnDestroyActivationDescriptor>;
#endif

}  // namespace cuda
}  // namespace edp
