// GPU simulator: the cuDNN activation path (cudnn.h), after the cuDNN API
// reference (cuDNN 7 to 9, legacy API):
//  - cudnnSetTensor4dDescriptor: CUDNN_STATUS_BAD_PARAM "if at least one of
//    the parameters n, c, h, w was negative or format has an invalid
//    enumerant value or dataType has an invalid enumerant value";
//    CUDNN_STATUS_NOT_SUPPORTED "if the total size of the tensor descriptor
//    exceeds the maximum limit of 2 Giga-elements". Packed NCHW strides.
//  - cudnnSetActivationDescriptor: BAD_PARAM for an invalid mode or
//    reluNanOpt enumerant.
//  - cudnnActivationForward: y = alpha relu(x) + beta y; BAD_PARAM when "the
//    dimensions n, c, h, w of the input tensor and output tensor differ", "the
//    datatype of the input tensor and output tensor differs", or a descriptor
//    was never set. In place (x == y) needs identical descriptors.
//  - cudnnActivationBackward: dx = alpha (y > 0 ? dy : 0) + beta dx, with the
//    same shape rules over y, dy, x, dx; in place only for dx == dy.
// With CUDNN_PROPAGATE_NAN a NaN input gives NaN; with CUDNN_NOT_PROPAGATE_NAN
// relu(NaN) is 0. beta == 0: the output is not read. Only NCHW float is
// implemented (the backend's use); anything else is CUDNN_STATUS_NOT_SUPPORTED.
// Operands must lie inside one allocation (CUDNN_STATUS_EXECUTION_FAILED
// otherwise, as a kernel fault would report).
// Faults injected with edp_sim::inject_fault("cudnnCreate", "cudnnSetStream",
// "cudnnSetTensor4dDescriptor", "cudnnActivationForward" or
// "cudnnActivationBackward", status) are returned as the call's status.
#include <cmath>
#include <cstdint>
#include <set>

#include "cudnn.h"
#include "fake_handles.h"
#include "fake_memory.h"
#include "fake_state.h"
#include "fake_stream.h"

using namespace edp_sim;

struct cudnnContext {
  int device = 0;
  cudaStream_t stream = nullptr;
};
struct cudnnTensorStruct {
  bool set = false;
  cudnnTensorFormat_t format = CUDNN_TENSOR_NCHW;
  cudnnDataType_t type = CUDNN_DATA_FLOAT;
  int n = 0, c = 0, h = 0, w = 0;
  std::int64_t count() const { return std::int64_t{n} * c * h * w; }
};
struct cudnnActivationStruct {
  bool set = false;
  cudnnActivationMode_t mode = CUDNN_ACTIVATION_RELU;
  cudnnNanPropagation_t nan = CUDNN_NOT_PROPAGATE_NAN;
  double coef = 0.0;
};

namespace {

std::set<cudnnContext*>& handles() {
  // Never destroyed: device state outlives every static destructor (and
  // LeakSanitizer, which runs after them, still sees it reachable).
  static auto* h = new std::set<cudnnContext*>;
  return *h;
}

bool same_shape(const cudnnTensorStruct* a, const cudnnTensorStruct* b) {
  return a->type == b->type && a->format == b->format && a->n == b->n && a->c == b->c &&
         a->h == b->h && a->w == b->w;
}

bool inside(const char* call, const char* name, const void* p, std::int64_t count) {
  const std::size_t bytes = static_cast<std::size_t>(count) * sizeof(float);
  if (allocation_of(p, bytes) != nullptr) return true;
  diagnose("%s: tensor %s: %s", call, name, explain_range(p, bytes).c_str());
  return false;
}

float relu_value(float x, cudnnNanPropagation_t nan) {
  if (std::isnan(x)) return nan == CUDNN_PROPAGATE_NAN ? x : 0.0f;
  return x > 0.0f ? x : 0.0f;
}

}  // namespace

namespace edp_sim {
void destroy_cudnn_handles(int device) {
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

const char* cudnnGetErrorString(cudnnStatus_t status) {
  switch (status) {
    case CUDNN_STATUS_SUCCESS:
      return "CUDNN_STATUS_SUCCESS";
    case CUDNN_STATUS_NOT_INITIALIZED:
      return "CUDNN_STATUS_NOT_INITIALIZED";
    case CUDNN_STATUS_ALLOC_FAILED:
      return "CUDNN_STATUS_ALLOC_FAILED";
    case CUDNN_STATUS_BAD_PARAM:
      return "CUDNN_STATUS_BAD_PARAM";
    case CUDNN_STATUS_EXECUTION_FAILED:
      return "CUDNN_STATUS_EXECUTION_FAILED";
    case CUDNN_STATUS_NOT_SUPPORTED:
      return "CUDNN_STATUS_NOT_SUPPORTED";
    default:
      return "CUDNN_STATUS_UNKNOWN";
  }
}

cudnnStatus_t cudnnGetProperty(libraryPropertyType type, int* value) {
  if (value == nullptr) return CUDNN_STATUS_BAD_PARAM;
  // The cuDNN of each JetPack/toolkit generation: 8.0 (JetPack 4.6 ships
  // cuDNN 8.2 for CUDA 10.2), 8.9 (CUDA 11.8), 9.0 (CUDA 12).
  const int v = version();
  const int major = v >= 12000 ? 9 : 8;
  const int minor = v >= 12000 ? 0 : v >= 11000 ? 9 : 2;
  switch (type) {
    case MAJOR_VERSION:
      *value = major;
      return CUDNN_STATUS_SUCCESS;
    case MINOR_VERSION:
      *value = minor;
      return CUDNN_STATUS_SUCCESS;
    case PATCH_LEVEL:
      *value = 0;
      return CUDNN_STATUS_SUCCESS;
  }
  return CUDNN_STATUS_BAD_PARAM;
}

cudnnStatus_t cudnnCreate(cudnnHandle_t* handle) {
  Guard lock(api_lock());
  {
    int injected = 0;  // edp_sim::inject_fault
    if (injected_fault("cudnnCreate", &injected)) return static_cast<cudnnStatus_t>(injected);
  }
  if (handle == nullptr) return CUDNN_STATUS_BAD_PARAM;
  ensure_context(current_device());
  auto* h = new cudnnContext;
  h->device = current_device();
  handles().insert(h);
  *handle = h;
  return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t cudnnDestroy(cudnnHandle_t handle) {
  Guard lock(api_lock());
  if (handle == nullptr || !handles().count(handle)) return CUDNN_STATUS_BAD_PARAM;
  handles().erase(handle);
  delete handle;
  return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t cudnnSetStream(cudnnHandle_t handle, cudaStream_t stream) {
  Guard lock(api_lock());
  {
    int injected = 0;  // edp_sim::inject_fault
    if (injected_fault("cudnnSetStream", &injected)) return static_cast<cudnnStatus_t>(injected);
  }
  if (handle == nullptr || !handles().count(handle) || !valid_stream(stream)) {
    return CUDNN_STATUS_BAD_PARAM;
  }
  handle->stream = stream;
  return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t cudnnCreateTensorDescriptor(cudnnTensorDescriptor_t* desc) {
  if (desc == nullptr) return CUDNN_STATUS_BAD_PARAM;
  *desc = new cudnnTensorStruct;
  return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t cudnnDestroyTensorDescriptor(cudnnTensorDescriptor_t desc) {
  delete desc;
  return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t cudnnSetTensor4dDescriptor(cudnnTensorDescriptor_t desc, cudnnTensorFormat_t format,
                                         cudnnDataType_t type, int n, int c, int h, int w) {
  {
    int injected = 0;  // edp_sim::inject_fault
    if (injected_fault("cudnnSetTensor4dDescriptor", &injected))
      return static_cast<cudnnStatus_t>(injected);
  }
  if (desc == nullptr || n < 0 || c < 0 || h < 0 || w < 0) return CUDNN_STATUS_BAD_PARAM;
  if (format != CUDNN_TENSOR_NCHW && format != CUDNN_TENSOR_NHWC) return CUDNN_STATUS_BAD_PARAM;
  if (type != CUDNN_DATA_FLOAT && type != CUDNN_DATA_DOUBLE && type != CUDNN_DATA_HALF) {
    return CUDNN_STATUS_BAD_PARAM;
  }
  if (std::int64_t{n} * c * h * w > (std::int64_t{1} << 31)) return CUDNN_STATUS_NOT_SUPPORTED;
  desc->set = true;
  desc->format = format;
  desc->type = type;
  desc->n = n, desc->c = c, desc->h = h, desc->w = w;
  return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t cudnnCreateActivationDescriptor(cudnnActivationDescriptor_t* desc) {
  if (desc == nullptr) return CUDNN_STATUS_BAD_PARAM;
  *desc = new cudnnActivationStruct;
  return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t cudnnDestroyActivationDescriptor(cudnnActivationDescriptor_t desc) {
  delete desc;
  return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t cudnnSetActivationDescriptor(cudnnActivationDescriptor_t desc,
                                           cudnnActivationMode_t mode,
                                           cudnnNanPropagation_t nan_opt, double coef) {
  if (desc == nullptr || mode < CUDNN_ACTIVATION_SIGMOID || mode > CUDNN_ACTIVATION_IDENTITY ||
      (nan_opt != CUDNN_NOT_PROPAGATE_NAN && nan_opt != CUDNN_PROPAGATE_NAN)) {
    return CUDNN_STATUS_BAD_PARAM;
  }
  desc->set = true;
  desc->mode = mode;
  desc->nan = nan_opt;
  desc->coef = coef;
  return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t cudnnActivationForward(cudnnHandle_t handle, cudnnActivationDescriptor_t act,
                                     const void* alpha, const cudnnTensorDescriptor_t x_desc,
                                     const void* x, const void* beta,
                                     const cudnnTensorDescriptor_t y_desc, void* y) {
  Guard lock(api_lock());
  {
    int injected = 0;  // edp_sim::inject_fault
    if (injected_fault("cudnnActivationForward", &injected))
      return static_cast<cudnnStatus_t>(injected);
  }
  if (handle == nullptr || !handles().count(handle)) return CUDNN_STATUS_BAD_PARAM;
  if (act == nullptr || !act->set || x_desc == nullptr || y_desc == nullptr || !x_desc->set ||
      !y_desc->set || alpha == nullptr || beta == nullptr || x == nullptr || y == nullptr) {
    return CUDNN_STATUS_BAD_PARAM;
  }
  if (!same_shape(x_desc, y_desc)) return CUDNN_STATUS_BAD_PARAM;
  if (act->mode != CUDNN_ACTIVATION_RELU || x_desc->type != CUDNN_DATA_FLOAT ||
      x_desc->format != CUDNN_TENSOR_NCHW) {
    return CUDNN_STATUS_NOT_SUPPORTED;
  }
  const std::int64_t count = x_desc->count();
  if (!inside("cudnnActivationForward", "x", x, count) ||
      !inside("cudnnActivationForward", "y", y, count)) {
    return CUDNN_STATUS_EXECUTION_FAILED;
  }
  const float a = *static_cast<const float*>(alpha), b = *static_cast<const float*>(beta);
  const cudnnNanPropagation_t nan = act->nan;
  const float* in = static_cast<const float*>(x);
  float* out = static_cast<float*>(y);
  enqueue(handle->stream, "cudnnActivationForward", [=]() {
    for (std::int64_t i = 0; i < count; ++i) {
      const float r = a * relu_value(in[i], nan);
      out[i] = b == 0.0f ? r : r + b * out[i];
    }
  });
  return CUDNN_STATUS_SUCCESS;
}

cudnnStatus_t cudnnActivationBackward(cudnnHandle_t handle, cudnnActivationDescriptor_t act,
                                      const void* alpha, const cudnnTensorDescriptor_t y_desc,
                                      const void* y, const cudnnTensorDescriptor_t dy_desc,
                                      const void* dy, const cudnnTensorDescriptor_t x_desc,
                                      const void* x, const void* beta,
                                      const cudnnTensorDescriptor_t dx_desc, void* dx) {
  Guard lock(api_lock());
  {
    int injected = 0;  // edp_sim::inject_fault
    if (injected_fault("cudnnActivationBackward", &injected))
      return static_cast<cudnnStatus_t>(injected);
  }
  if (handle == nullptr || !handles().count(handle)) return CUDNN_STATUS_BAD_PARAM;
  const cudnnTensorStruct* descs[] = {y_desc, dy_desc, x_desc, dx_desc};
  for (const cudnnTensorStruct* d : descs) {
    if (d == nullptr || !d->set) return CUDNN_STATUS_BAD_PARAM;
  }
  if (act == nullptr || !act->set || alpha == nullptr || beta == nullptr || y == nullptr ||
      dy == nullptr || x == nullptr || dx == nullptr) {
    return CUDNN_STATUS_BAD_PARAM;
  }
  for (const cudnnTensorStruct* d : descs) {
    if (!same_shape(d, y_desc)) return CUDNN_STATUS_BAD_PARAM;
  }
  // In place is documented for dx == dy only.
  if (dx != dy && (dx == x || dx == y)) {
    diagnose("cudnnActivationBackward: dx aliases %s; only dx == dy may be in place",
             dx == x ? "x" : "y");
    return CUDNN_STATUS_BAD_PARAM;
  }
  if (act->mode != CUDNN_ACTIVATION_RELU || y_desc->type != CUDNN_DATA_FLOAT ||
      y_desc->format != CUDNN_TENSOR_NCHW) {
    return CUDNN_STATUS_NOT_SUPPORTED;
  }
  const std::int64_t count = y_desc->count();
  const char* call = "cudnnActivationBackward";
  if (!inside(call, "y", y, count) || !inside(call, "dy", dy, count) ||
      !inside(call, "x", x, count) || !inside(call, "dx", dx, count)) {
    return CUDNN_STATUS_EXECUTION_FAILED;
  }
  const float a = *static_cast<const float*>(alpha), b = *static_cast<const float*>(beta);
  const float* out = static_cast<const float*>(y);
  const float* grad_out = static_cast<const float*>(dy);
  float* grad_in = static_cast<float*>(dx);
  enqueue(handle->stream, call, [=]() {
    for (std::int64_t i = 0; i < count; ++i) {
      const float r = a * (out[i] > 0.0f ? grad_out[i] : 0.0f);
      grad_in[i] = b == 0.0f ? r : r + b * grad_in[i];
    }
  });
  return CUDNN_STATUS_SUCCESS;
}

}  // extern "C"
