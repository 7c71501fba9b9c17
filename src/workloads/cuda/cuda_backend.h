// The CUDA backend (DESIGN §2): cuBLAS for every GEMM, the kernels of
// kernels.cu for element-wise work and reductions, and cuDNN's activation
// routines as an alternative ReLU path.
//
// One backend object owns one stream, one cuBLAS handle and (for relu=cudnn)
// one cuDNN handle, all bound to its device; every operation is queued on that
// stream. Only download(), read_scalar(), synchronize(), stop_device_timer_s()
// and stop_device_timer_s() wait for the device; how the host thread waits is
// CudaOptions::sync, set on the device's primary context.
#pragma once

#include <map>
#include <memory>
#include <string>

#include "edpbench/config.h"
#include "workloads/backend.h"
#include "workloads/cuda/cuda_handles.h"
#include "workloads/cuda/device_pool.h"
#include "workloads/cuda/device_state.h"
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
  void add(const Tensor& a, const Tensor& b, Tensor& out) override;
  void sigmoid(const Tensor& x, Tensor& out) override;
  void tanh(const Tensor& x, Tensor& out) override;
  // Every SM filled (fma_peak_blocks(launch_) blocks of kFmaPeakThreads).
  double fma_peak_flop(int64_t rounds) const override;
  void fma_peak(int64_t rounds, Tensor& sink) override;

  void sum(const Tensor& x, Tensor& out) override;
  void sub_square_sum(const Tensor& a, const Tensor& b, Tensor& diff, Tensor& out) override;

  float read_scalar(const Tensor& s) override;
  void synchronize() override;
  void start_device_timer() override;
  double stop_device_timer_s() override;

  // For tests and diagnostics.
  DevicePool::Stats pool_stats() const { return pool_->stats(); }
  ReluPath relu_path() const { return relu_path_; }

 private:
  // Makes this backend's device current for the calling thread (cuBLAS and
  // the stream are bound to it).
  void activate() const;
  // Sets the host-wait flag on the device's primary context, creates the
  // context, and checks that the flag took (throws CudaError if it did not).
  void apply_sync_mode(const std::string& sync);
#if EDPBENCH_HAVE_CUDNN
  void set_cudnn_shape(cudnnTensorDescriptor_t desc, const Tensor& t) const;
#endif

  int device_;
  ReluPath relu_path_;
  unsigned schedule_flag_;  // cudaDeviceSchedule* of CudaOptions::sync
  Launch launch_;
  std::map<std::string, std::string> facts_;

  // Members are destroyed in reverse order: handles before the stream they
  // use, the stream before the pool (which tensors may keep alive longer).
  // This backend's use of the device (shared with the pool, whose tensors may
  // outlive the backend): cuda_release_device() leaves a used device alone.
  std::shared_ptr<DeviceUse> use_;
  std::shared_ptr<DevicePool> pool_;
  UniqueStream stream_;
  UniqueCublas cublas_;
  UniqueEvent run_start_;  // start_device_timer() / stop_device_timer_s()
  UniqueEvent run_stop_;   // blocking-sync event when sync is "block"
  bool timer_running_ = false;
  std::shared_ptr<float> reduce_scratch_;  // kReduceMaxBlocks doubles, from the pool
#if EDPBENCH_HAVE_CUDNN
  UniqueCudnn cudnn_;
  UniqueActivationDescriptor relu_desc_;
  UniqueTensorDescriptor x_desc_;
#endif
};

}  // namespace cuda
}  // namespace edp
