// GPU simulator (EDPBENCH_GPU_SIM): the cuDNN calls of edpbench's ReLU path
// (cuDNN API reference: cudnnCreate, cudnnSetStream, cudnnSetTensor4dDescriptor,
// cudnnSetActivationDescriptor, cudnnActivationForward/Backward), with the
// documented status and enumerator values.
#pragma once

#include "cuda_runtime_api.h"
#include "library_types.h"

typedef enum {
  CUDNN_STATUS_SUCCESS = 0,
  CUDNN_STATUS_NOT_INITIALIZED = 1,
  CUDNN_STATUS_ALLOC_FAILED = 2,
  CUDNN_STATUS_BAD_PARAM = 3,
  CUDNN_STATUS_INTERNAL_ERROR = 4,
  CUDNN_STATUS_INVALID_VALUE = 5,
  CUDNN_STATUS_ARCH_MISMATCH = 6,
  CUDNN_STATUS_MAPPING_ERROR = 7,
  CUDNN_STATUS_EXECUTION_FAILED = 8,
  CUDNN_STATUS_NOT_SUPPORTED = 9
} cudnnStatus_t;

// The enumerators of cuDNN 7.6-8.0's cudnn.h, with their values, also those the
// fake does not accept (it answers CUDNN_STATUS_BAD_PARAM for them): an enum's
// values in C++ are those its enumerators span, so a test can pass an
// unknown value (3 here, 15 below) only inside that span without undefined
// behaviour (Clang's -fsanitize=enum reports a load outside it).
typedef enum {
  CUDNN_TENSOR_NCHW = 0,
  CUDNN_TENSOR_NHWC = 1,
  CUDNN_TENSOR_NCHW_VECT_C = 2
} cudnnTensorFormat_t;
typedef enum {
  CUDNN_DATA_FLOAT = 0,
  CUDNN_DATA_DOUBLE = 1,
  CUDNN_DATA_HALF = 2,
  CUDNN_DATA_INT8 = 3,
  CUDNN_DATA_INT32 = 4,
  CUDNN_DATA_INT8x4 = 5,
  CUDNN_DATA_UINT8 = 6,
  CUDNN_DATA_UINT8x4 = 7,
  CUDNN_DATA_INT8x32 = 8
} cudnnDataType_t;
typedef enum {
  CUDNN_ACTIVATION_SIGMOID = 0,
  CUDNN_ACTIVATION_RELU = 1,
  CUDNN_ACTIVATION_TANH = 2,
  CUDNN_ACTIVATION_CLIPPED_RELU = 3,
  CUDNN_ACTIVATION_ELU = 4,
  CUDNN_ACTIVATION_IDENTITY = 5
} cudnnActivationMode_t;
typedef enum { CUDNN_NOT_PROPAGATE_NAN = 0, CUDNN_PROPAGATE_NAN = 1 } cudnnNanPropagation_t;

typedef struct cudnnContext* cudnnHandle_t;
typedef struct cudnnTensorStruct* cudnnTensorDescriptor_t;
typedef struct cudnnActivationStruct* cudnnActivationDescriptor_t;

extern "C" {
const char* cudnnGetErrorString(cudnnStatus_t status);
cudnnStatus_t cudnnGetProperty(libraryPropertyType type, int* value);
cudnnStatus_t cudnnCreate(cudnnHandle_t* handle);
cudnnStatus_t cudnnDestroy(cudnnHandle_t handle);
cudnnStatus_t cudnnSetStream(cudnnHandle_t handle, cudaStream_t stream);
cudnnStatus_t cudnnCreateTensorDescriptor(cudnnTensorDescriptor_t* desc);
cudnnStatus_t cudnnDestroyTensorDescriptor(cudnnTensorDescriptor_t desc);
cudnnStatus_t cudnnSetTensor4dDescriptor(cudnnTensorDescriptor_t desc, cudnnTensorFormat_t format,
                                         cudnnDataType_t type, int n, int c, int h, int w);
cudnnStatus_t cudnnCreateActivationDescriptor(cudnnActivationDescriptor_t* desc);
cudnnStatus_t cudnnDestroyActivationDescriptor(cudnnActivationDescriptor_t desc);
cudnnStatus_t cudnnSetActivationDescriptor(cudnnActivationDescriptor_t desc,
                                           cudnnActivationMode_t mode,
                                           cudnnNanPropagation_t nan_opt, double coef);
cudnnStatus_t cudnnActivationForward(cudnnHandle_t handle, cudnnActivationDescriptor_t desc,
                                     const void* alpha, const cudnnTensorDescriptor_t x_desc,
                                     const void* x, const void* beta,
                                     const cudnnTensorDescriptor_t y_desc, void* y);
cudnnStatus_t cudnnActivationBackward(cudnnHandle_t handle, cudnnActivationDescriptor_t desc,
                                      const void* alpha, const cudnnTensorDescriptor_t y_desc,
                                      const void* y, const cudnnTensorDescriptor_t dy_desc,
                                      const void* dy, const cudnnTensorDescriptor_t x_desc,
                                      const void* x, const void* beta,
                                      const cudnnTensorDescriptor_t dx_desc, void* dx);
}
