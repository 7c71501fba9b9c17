// The CUDA backend (see cuda_backend.h).
#include "workloads/cuda/cuda_backend.h"

#include <climits>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <utility>

#include "common/errors.h"
#include "workloads/cuda/cuda_check.h"

namespace edp {
namespace cuda {

namespace {

ReluPath parse_relu(const std::string& relu) {
  if (relu == "kernel") return ReluPath::kKernel;
  if (relu == "cudnn") {
#if EDPBENCH_HAVE_CUDNN
    return ReluPath::kCudnn;
#else
    throw UsageError(
        "relu: cudnn was asked for, but this build has no cuDNN (install cuDNN and configure "
        "with -DEDPBENCH_WITH_CUDNN=ON); use relu: kernel");
#endif
  }
  throw UsageError("unknown CUDA relu path '" + relu + "' (valid: kernel, cudnn)");
}

// cuBLAS and cuDNN take int dimensions.
int to_int(const char* op, int64_t value) {
  if (value > INT_MAX) {
    throw std::invalid_argument(std::string(op) + ": dimension " + std::to_string(value) +
                                " exceeds the CUDA libraries' int range");
  }
  return static_cast<int>(value);
}

std::string version_of_cublas() {
  int major = 0, minor = 0, patch = 0;
  CUDA_CHECK_THROW(cublasGetProperty(MAJOR_VERSION, &major));
  CUDA_CHECK_THROW(cublasGetProperty(MINOR_VERSION, &minor));
  CUDA_CHECK_THROW(cublasGetProperty(PATCH_LEVEL, &patch));
  return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch);
}

bool is_positive_zero(float value) {
  std::uint32_t bits = 0;
  std::memcpy(&bits, &value, sizeof bits);
  return bits == 0;
}

}  // namespace

CudaBackend::CudaBackend(const CudaOptions& options)
    : device_(options.device_index),
      relu_path_(parse_relu(options.relu)),
      schedule_flag_(schedule_flag(options.sync)) {
  // Cached after the first call; the probe leaves no context behind, so the
  // context below is created with this backend's flags.
  const std::string reason = cuda_unavailable_reason(device_);
  if (!reason.empty()) {
    throw CudaError("CUDA device " + std::to_string(device_) + " is not usable: " + reason);
  }
  use_ = acquire_device_use(device_, options.sync);  // throws for a live user with another sync
  apply_sync_mode(options.sync);                     // makes device_ current
  cudaDeviceProp prop;
  CUDA_CHECK_THROW(cudaGetDeviceProperties(&prop, device_));
  // Grids fill every SM with as many blocks as are resident at once (each
  // kernel's occupancy, kernels.cu); grid-stride loops cover the rest.
  launch_.sm_count = prop.multiProcessorCount;

  pool_ = std::make_shared<DevicePool>(device_, use_);

  cudaStream_t stream = nullptr;
  // Non-blocking: nothing in the process that uses the legacy default stream
  // can serialise against the measured work.
  CUDA_CHECK_THROW(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  stream_.reset(stream);
  launch_.stream = stream;

  cublasHandle_t cublas = nullptr;
  CUDA_CHECK_THROW(cublasCreate(&cublas));
  cublas_.reset(cublas);
  CUDA_CHECK_THROW(cublasSetStream(cublas, stream));
  CUDA_CHECK_THROW(cublasSetPointerMode(cublas, CUBLAS_POINTER_MODE_HOST));
  // Plain FP32 GEMM. Since CUDA 11, CUBLAS_DEFAULT_MATH never uses TF32 tensor
  // cores for cublasSgemm (that needs CUBLAS_TF32_TENSOR_OP_MATH); on CUDA 10.2
  // and Pascal there is no TF32 at all. Set explicitly so the choice is visible.
  CUDA_CHECK_THROW(cublasSetMathMode(cublas, CUBLAS_DEFAULT_MATH));

  cudaEvent_t event = nullptr;
  CUDA_CHECK_THROW(cudaEventCreate(&event));
  run_start_.reset(event);
  // Waiting on an event follows the event's own flag, not the context's: only
  // an event made with cudaEventBlockingSync lets the host thread sleep.
  CUDA_CHECK_THROW(cudaEventCreateWithFlags(&event, schedule_flag_ == cudaDeviceScheduleBlockingSync
                                                        ? cudaEventBlockingSync
                                                        : cudaEventDefault));
  run_stop_.reset(event);

  reduce_scratch_ = pool_->allocate(kReduceMaxBlocks * sizeof(double));

#if EDPBENCH_HAVE_CUDNN
  if (relu_path_ == ReluPath::kCudnn) {
    cudnnHandle_t cudnn = nullptr;
    CUDA_CHECK_THROW(cudnnCreate(&cudnn));
    cudnn_.reset(cudnn);
    CUDA_CHECK_THROW(cudnnSetStream(cudnn, stream));
    cudnnActivationDescriptor_t act = nullptr;
    CUDA_CHECK_THROW(cudnnCreateActivationDescriptor(&act));
    relu_desc_.reset(act);
    // NaN propagates, like the kernel path, so a diverged run stays NaN.
    CUDA_CHECK_THROW(
        cudnnSetActivationDescriptor(act, CUDNN_ACTIVATION_RELU, CUDNN_PROPAGATE_NAN, 0.0));
    cudnnTensorDescriptor_t desc = nullptr;
    CUDA_CHECK_THROW(cudnnCreateTensorDescriptor(&desc));
    x_desc_.reset(desc);
  }
#endif

  facts_["backend"] = "cuda";
  facts_["device_index"] = std::to_string(device_);
  facts_["gpu"] = prop.name;
  facts_["compute_capability"] = std::to_string(prop.major) + "." + std::to_string(prop.minor);
  facts_["sm_count"] = std::to_string(prop.multiProcessorCount);
  facts_["l2_cache_bytes"] = std::to_string(prop.l2CacheSize);  // the cold ops' flush size
  facts_["gemm"] = "cublasSgemm, CUBLAS_DEFAULT_MATH (FP32, TF32 off)";
  facts_["cublas_version"] = version_of_cublas();
  facts_["relu"] = relu_path_ == ReluPath::kCudnn ? "cudnn" : "kernel";
  facts_["memory"] = "cudaMalloc caching pool";
  facts_["sync"] = options.sync;
  unsigned flags = 0;
  CUDA_CHECK_THROW(cudaGetDeviceFlags(&flags));
  facts_["sync_flag"] = schedule_flag_name(flags);  // read back from the context
  facts_["device_timer"] = "cudaEvent pair around the steps (start/stop_device_timer)";
  if (!options.host_thread_cpus.empty()) facts_["host_thread_cpus"] = options.host_thread_cpus;
  // Environment switches that change cuBLAS FP32 arithmetic behind the math
  // mode's back: record them when set so a result can be traced to them.
  for (const char* var : {"NVIDIA_TF32_OVERRIDE", "CUBLAS_EMULATE_SINGLE_PRECISION"}) {
    if (const char* value = std::getenv(var)) facts_[std::string("env_") + var] = value;
  }
#if EDPBENCH_HAVE_CUDNN
  if (relu_path_ == ReluPath::kCudnn) {
    int major = 0, minor = 0, patch = 0;
    CUDA_CHECK_THROW(cudnnGetProperty(MAJOR_VERSION, &major));
    CUDA_CHECK_THROW(cudnnGetProperty(MINOR_VERSION, &minor));
    CUDA_CHECK_THROW(cudnnGetProperty(PATCH_LEVEL, &patch));
    facts_["cudnn_version"] =
        std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch);
  }
#endif
}

CudaBackend::~CudaBackend() {
  // Queued work may still use pooled blocks; wait, then give the memory back.
  int current = -1;
  if (cudaGetDevice(&current) == cudaSuccess && current != device_) (void)cudaSetDevice(device_);
  if (stream_) (void)cudaStreamSynchronize(stream_.get());
  (void)cudaGetLastError();
  if (pool_) pool_->close();
}

std::map<std::string, std::string> CudaBackend::describe() const {
  auto facts = facts_;
  const auto stats = pool_->stats();
  facts["pool_device_allocations"] = std::to_string(stats.device_allocations);
  facts["pool_reuses"] = std::to_string(stats.reuses);
  facts["pool_bytes_high_water"] = std::to_string(stats.bytes_high_water);
  return facts;
}

void CudaBackend::apply_sync_mode(const std::string& sync) {
  // The flags go on the primary context through the driver before any runtime
  // call touches the device: from CUDA 12 on, cudaSetDevice creates the
  // context, with the flags it has then. cuDevicePrimaryCtxSetFlags refuses a
  // context that exists already (CUDA_ERROR_PRIMARY_CONTEXT_ACTIVE); the
  // read-back below then says whether its flags are ours anyway.
  // A context that is alive with our flags already (another backend of this
  // process) needs no call at all: each call below would fail on it, and a
  // failed call is an error under compute-sanitizer.
  const PrimaryContextState before = primary_context_state(device_);
  const bool already_ours =
      before.known && before.active && (before.flags & cudaDeviceScheduleMask) == schedule_flag_;
  PrimaryContextFlagsResult driver;
  if (!already_ours) driver = set_primary_context_flags(device_, schedule_flag_);
  CUDA_CHECK_THROW(cudaSetDevice(device_));
  cudaError_t set = cudaSuccess;
  if (!already_ours && (!driver.known || driver.context_active)) {
    // No libcuda entry point to call, or the context outlived an earlier
    // backend (live users share our mode: acquire_device_use checked): the
    // runtime's call, which from CUDA 11 on changes a live context's flags.
    // CUDA 10.2 refuses (cudaErrorSetOnActiveProcess) and the read-back says so.
    set = cudaSetDeviceFlags(schedule_flag_);
    if (set != cudaSuccess && set != cudaErrorSetOnActiveProcess) {
      check(set, ("cudaSetDeviceFlags(" + schedule_flag_name(schedule_flag_) + ")").c_str(),
            __FILE__, __LINE__);
    }
    (void)cudaGetLastError();
  }
  CUDA_CHECK_THROW(cudaFree(nullptr));  // creates the context now, with those flags
  unsigned flags = 0;
  CUDA_CHECK_THROW(cudaGetDeviceFlags(&flags));
  if ((flags & cudaDeviceScheduleMask) != schedule_flag_) {
    throw CudaError(
        "gpu.sync: " + sync + " (" + schedule_flag_name(schedule_flag_) +
        ") cannot take effect on CUDA device " + std::to_string(device_) +
        ": its primary context already exists with " + schedule_flag_name(flags) +
        (set == cudaErrorSetOnActiveProcess
             ? std::string(" and cudaSetDeviceFlags answered: ") + cudaGetErrorString(set)
             : std::string()) +
        (driver.known && driver.driver_status != 0
             ? " and cuDevicePrimaryCtxSetFlags answered CUresult " +
                   std::to_string(driver.driver_status) +
                   (driver.context_active ? std::string(" (CUDA_ERROR_PRIMARY_CONTEXT_ACTIVE)")
                                          : std::string())
             : std::string()) +
        ". Something earlier in this process created the context; call "
        "cuda_release_device() once the earlier GPU backend is gone, or use the same gpu.sync");
  }
}

void CudaBackend::activate() const {
  int current = -1;
  CUDA_CHECK_THROW(cudaGetDevice(&current));
  if (current != device_) CUDA_CHECK_THROW(cudaSetDevice(device_));
}

// ---- memory -----------------------------------------------------------------

Tensor CudaBackend::empty(int64_t rows, int64_t cols) {
  if (rows < 0 || cols < 0 || (cols > 0 && rows > INT64_MAX / 4 / cols)) {
    throw std::invalid_argument("empty: invalid shape " + std::to_string(rows) + "x" +
                                std::to_string(cols));
  }
  activate();
  const auto bytes = static_cast<std::size_t>(rows * cols) * sizeof(float);
  return Tensor(pool_->allocate(bytes), rows, cols);
}

void CudaBackend::upload(const float* host, Tensor& t) {
  if (t.numel() == 0) return;
  activate();
  // From pageable memory the driver stages the data before returning, so the
  // caller may reuse `host` at once; the device copy stays stream-ordered.
  CUDA_CHECK_THROW(cudaMemcpyAsync(t.data(), host, t.numel() * sizeof(float),
                                   cudaMemcpyHostToDevice, stream_.get()));
}

void CudaBackend::download(const Tensor& t, float* host) {
  activate();
  if (t.numel() > 0) {
    CUDA_CHECK_THROW(cudaMemcpyAsync(host, t.data(), t.numel() * sizeof(float),
                                     cudaMemcpyDeviceToHost, stream_.get()));
  }
  CUDA_CHECK_THROW(cudaStreamSynchronize(stream_.get()));
}

void CudaBackend::fill(Tensor& t, float value) {
  if (t.numel() == 0) return;
  activate();
  if (is_positive_zero(value)) {
    CUDA_CHECK_THROW(cudaMemsetAsync(t.data(), 0, t.numel() * sizeof(float), stream_.get()));
  } else {
    launch_fill(launch_, t.data(), value, t.numel());
  }
}

void CudaBackend::copy(const Tensor& src, Tensor& dst) {
  check_same_shape("copy", src, dst);
  if (src.numel() == 0 || src.data() == dst.data()) return;
  activate();
  CUDA_CHECK_THROW(cudaMemcpyAsync(dst.data(), src.data(), src.numel() * sizeof(float),
                                   cudaMemcpyDeviceToDevice, stream_.get()));
}

// ---- BLAS -------------------------------------------------------------------

void CudaBackend::gemm(Trans ta, Trans tb, float alpha, const Tensor& a, const Tensor& b,
                       float beta, Tensor& c) {
  check_gemm_shapes(ta, tb, a, b, c);
  const int m = to_int("gemm", c.rows());
  const int n = to_int("gemm", c.cols());
  const int k = to_int("gemm", ta == Trans::N ? a.cols() : a.rows());
  if (m == 0 || n == 0) return;
  // Row-major X (r x c) is column-major X^T with leading dimension c. So
  // C = op(A) op(B) in row-major is C^T = op(B)^T op(A)^T in column-major:
  // swap the operands, keep each one's transpose flag, no copies.
  const int lda = to_int("gemm", a.cols() > 0 ? a.cols() : 1);
  const int ldb = to_int("gemm", b.cols() > 0 ? b.cols() : 1);
  const int ldc = n;
  const cublasOperation_t op_a = ta == Trans::T ? CUBLAS_OP_T : CUBLAS_OP_N;
  const cublasOperation_t op_b = tb == Trans::T ? CUBLAS_OP_T : CUBLAS_OP_N;
  activate();
  CUDA_CHECK_THROW(cublasSgemm(cublas_.get(), op_b, op_a, n, m, k, &alpha, b.data(), ldb, a.data(),
                               lda, &beta, c.data(), ldc));
}

void CudaBackend::axpy(float alpha, const Tensor& x, Tensor& y) {
  check_same_shape("axpy", x, y);
  activate();
  launch_axpy(launch_, alpha, x.data(), y.data(), x.numel());
}

// ---- element-wise -------------------------------------------------------------

#if EDPBENCH_HAVE_CUDNN
void CudaBackend::set_cudnn_shape(cudnnTensorDescriptor_t desc, const Tensor& t) const {
  to_int("cudnn relu", t.numel());  // cuDNN indexes tensors with int
  CUDA_CHECK_THROW(cudnnSetTensor4dDescriptor(desc, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 1, 1,
                                              static_cast<int>(t.rows()),
                                              static_cast<int>(t.cols())));
}
#endif

void CudaBackend::relu(const Tensor& x, Tensor& y) {
  check_same_shape("relu", x, y);
  if (x.numel() == 0) return;
  activate();
#if EDPBENCH_HAVE_CUDNN
  if (relu_path_ == ReluPath::kCudnn) {
    set_cudnn_shape(x_desc_.get(), x);
    const float one = 1.0f, zero = 0.0f;
    // In place (y == x) is allowed by cuDNN for identical descriptors.
    CUDA_CHECK_THROW(cudnnActivationForward(cudnn_.get(), relu_desc_.get(), &one, x_desc_.get(),
                                            x.data(), &zero, x_desc_.get(), y.data()));
    return;
  }
#endif
  launch_relu(launch_, x.data(), y.data(), x.numel());
}

void CudaBackend::relu_backward(const Tensor& grad_y, const Tensor& x, Tensor& grad_x) {
  check_same_shape("relu_backward", grad_y, x);
  check_same_shape("relu_backward", x, grad_x);
  if (x.numel() == 0) return;
  activate();
#if EDPBENCH_HAVE_CUDNN
  // cuDNN documents in-place only for dx == dy; grad_x == x takes the kernel.
  if (relu_path_ == ReluPath::kCudnn && (grad_x.data() != x.data() || x.data() == grad_y.data())) {
    set_cudnn_shape(x_desc_.get(), x);
    const float one = 1.0f, zero = 0.0f;
    // cuDNN wants the forward output y as well; relu(x) > 0 exactly where
    // x > 0, so x serves as y and no forward result has to be kept.
    const cudnnTensorDescriptor_t d = x_desc_.get();
    CUDA_CHECK_THROW(cudnnActivationBackward(cudnn_.get(), relu_desc_.get(), &one, d, x.data(), d,
                                             grad_y.data(), d, x.data(), &zero, d, grad_x.data()));
    return;
  }
#endif
  launch_relu_backward(launch_, grad_y.data(), x.data(), grad_x.data(), x.numel());
}

void CudaBackend::sub(const Tensor& a, const Tensor& b, Tensor& out) {
  check_same_shape("sub", a, b);
  check_same_shape("sub", a, out);
  activate();
  launch_sub(launch_, a.data(), b.data(), out.data(), a.numel());
}

void CudaBackend::mul(const Tensor& a, const Tensor& b, Tensor& out) {
  check_same_shape("mul", a, b);
  check_same_shape("mul", a, out);
  activate();
  launch_mul(launch_, a.data(), b.data(), out.data(), a.numel());
}

void CudaBackend::scale(const Tensor& x, float alpha, Tensor& out) {
  check_same_shape("scale", x, out);
  activate();
  launch_scale(launch_, x.data(), alpha, out.data(), x.numel());
}

void CudaBackend::square(const Tensor& x, Tensor& out) {
  check_same_shape("square", x, out);
  activate();
  launch_square(launch_, x.data(), out.data(), x.numel());
}

void CudaBackend::broadcast(const Tensor& s, Tensor& out) {
  check_scalar("broadcast", s);
  activate();
  launch_broadcast(launch_, s.data(), out.data(), out.numel());
}

// ---- operator workloads --------------------------------------------------------

void CudaBackend::add(const Tensor& a, const Tensor& b, Tensor& out) {
  check_same_shape("add", a, b);
  check_same_shape("add", a, out);
  activate();
  launch_add(launch_, a.data(), b.data(), out.data(), a.numel());
}

void CudaBackend::sigmoid(const Tensor& x, Tensor& out) {
  check_same_shape("sigmoid", x, out);
  activate();
  launch_sigmoid(launch_, x.data(), out.data(), x.numel());
}

void CudaBackend::tanh(const Tensor& x, Tensor& out) {
  check_same_shape("tanh", x, out);
  activate();
  launch_tanh(launch_, x.data(), out.data(), x.numel());
}

double CudaBackend::fma_peak_flop(int64_t rounds) const {
  activate();
  return 2.0 * kFmaPeakChains * static_cast<double>(rounds) * kFmaPeakThreads *
         static_cast<double>(fma_peak_blocks(launch_));
}

void CudaBackend::fma_peak(int64_t rounds, Tensor& sink) {
  check_scalar("fma_peak", sink);
  activate();
  launch_fma_peak(launch_, rounds, sink.data());
}

// ---- reductions ---------------------------------------------------------------

void CudaBackend::sum(const Tensor& x, Tensor& out) {
  check_scalar("sum", out);
  activate();
  launch_sum(launch_, x.data(), x.numel(), reinterpret_cast<double*>(reduce_scratch_.get()),
             out.data());
}

void CudaBackend::sub_square_sum(const Tensor& a, const Tensor& b, Tensor& diff, Tensor& out) {
  check_same_shape("sub_square_sum", a, b);
  check_same_shape("sub_square_sum", a, diff);
  check_scalar("sub_square_sum", out);
  activate();
  launch_sub_square_sum(launch_, a.data(), b.data(), diff.data(), a.numel(),
                        reinterpret_cast<double*>(reduce_scratch_.get()), out.data());
}

float CudaBackend::read_scalar(const Tensor& s) {
  check_scalar("read_scalar", s);
  float value = 0.0f;
  download(s, &value);
  return value;
}

void CudaBackend::synchronize() {
  activate();
  CUDA_CHECK_THROW(cudaStreamSynchronize(stream_.get()));
}

void CudaBackend::start_device_timer() {
  activate();
  CUDA_CHECK_THROW(cudaEventRecord(run_start_.get(), stream_.get()));
  timer_running_ = true;
}

double CudaBackend::stop_device_timer_s() {
  if (!timer_running_) {
    throw std::logic_error("cuda stop_device_timer_s() without start_device_timer()");
  }
  timer_running_ = false;
  activate();
  CUDA_CHECK_THROW(cudaEventRecord(run_stop_.get(), stream_.get()));
  // Waits for the stop mark alone (sleeping when sync is "block").
  CUDA_CHECK_THROW(cudaEventSynchronize(run_stop_.get()));
  float ms = 0.0f;
  CUDA_CHECK_THROW(cudaEventElapsedTime(&ms, run_start_.get(), run_stop_.get()));
  return static_cast<double>(ms) * 1e-3;
}

}  // namespace cuda
}  // namespace edp
