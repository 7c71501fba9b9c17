// The CUDA backend (DESIGN §2): cuBLAS for every GEMM, the kernels of
// kernels.cu for element-wise work and reductions, and cuDNN's activation
// routines as an alternative ReLU path.
//
// One backend object owns one stream, one cuBLAS handle and (for relu=cudnn)
// one cuDNN handle, all bound to its device; every operation is queued on that
// stream. Only download(), read_scalar(), synchronize() and
// device_elapsed_s() wait for the device.
#pragma once

#include <map>
#include <memory>
#include <string>

#include "edpbench/config.h"
#include "workloads/backend.h"
#include "workloads/cuda/cuda_handles.h"
#include "workloads/cuda/device_pool.h"
#include "workloads/cuda/kernels.h"
#include "workloads/cuda_factory.h"

namespace edp {
namespace cuda {

enum class ReluPath { kKernel, kCudnn };

class CudaBackend final : public Backend {
 public:
  // Throws CudaError when the device cannot be used, UsageError for an unknown
  // relu path or relu=cudnn in a build without cuDNN.
  explicit CudaBackend(const CudaOptions& options);
  ~CudaBackend() override;

  std::string name() const override { return "cuda"; }
  std::map<std::string, std::string> describe() const override;

  Tensor empty(int64_t rows, int64_t cols) override;
  void upload(const float* host, Tensor& t) override;
  void download(const Tensor& t, float* host) override;
  void fill(Tensor& t, float value) override;
  void copy(const Tensor& src, Tensor& dst) override;

  void gemm(Trans ta, Trans tb, float alpha, const Tensor& a, const Tensor& b, float beta,
            Tensor& c) override;
  void axpy(float alpha, const Tensor& x, Tensor& y) override;

  void relu(const Tensor& x, Tensor& y) override;
  void relu_backward(const Tensor& grad_y, const Tensor& x, Tensor& grad_x) override;
  void sub(const Tensor& a, const Tensor& b, Tensor& out) override;
  void mul(const Tensor& a, const Tensor& b, Tensor& out) override;
  void scale(const Tensor& x, float alpha, Tensor& out) override;
  void square(const Tensor& x, Tensor& out) override;
  void broadcast(const Tensor& s, Tensor& out) override;

  void sum(const Tensor& x, Tensor& out) override;
  void sub_square_sum(const Tensor& a, const Tensor& b, Tensor& diff, Tensor& out) override;

  float read_scalar(const Tensor& s) override;
  void synchronize() override;
  double device_elapsed_s() override;

  // For tests and diagnostics.
  DevicePool::Stats pool_stats() const { return pool_->stats(); }
  ReluPath relu_path() const { return relu_path_; }

 private:
  // Makes this backend's device current for the calling thread (cuBLAS and
  // the stream are bound to it).
  void activate() const;
#if EDPBENCH_HAVE_CUDNN
  void set_cudnn_shape(cudnnTensorDescriptor_t desc, const Tensor& t) const;
#endif

  int device_;
  ReluPath relu_path_;
  Launch launch_;
  std::map<std::string, std::string> facts_;

  // Members are destroyed in reverse order: handles before the stream they
  // use, the stream before the pool (which tensors may keep alive longer).
  std::shared_ptr<DevicePool> pool_;
  UniqueStream stream_;
  UniqueCublas cublas_;
  UniqueEvent since_;  // device_elapsed_s(): start of the current interval
  UniqueEvent now_;
  std::shared_ptr<float> reduce_scratch_;  // kReduceMaxBlocks doubles, from the pool
#if EDPBENCH_HAVE_CUDNN
  UniqueCudnn cudnn_;
  UniqueActivationDescriptor relu_desc_;
  UniqueTensorDescriptor x_desc_;
#endif
};

}  // namespace cuda
}  // namespace edp
