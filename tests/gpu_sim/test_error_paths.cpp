// The backend's error paths, driven by faults injected into the simulated
// CUDA stack (edp_sim::inject_fault): a refused kernel launch, out of device
// memory, cuBLAS and cuDNN failures, failed copies and waits. Each must become
// a std::runtime_error naming the call and the source line (cuda_check.h),
// leave no error behind for the next call to report, and leave the backend
// usable. A GPU fails these calls rarely and never on demand; here each one
// fails exactly once, where the test says.
#include <catch2/catch.hpp>

#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "cublas_v2.h"
#include "cudnn.h"
#include "edp_sim/control.h"
#include "sim_test_support.h"
#include "support/backends.h"
#include "workloads/cuda_factory.h"

using Catch::Matchers::Contains;
using edp::Backend;
using edp::Tensor;
using edp::Trans;
using edp::testing::fetch;
using edp_sim_test::gpu;

namespace {

Tensor filled(Backend& b, int64_t rows, int64_t cols, float value) {
  Tensor t = b.empty(rows, cols);
  b.fill(t, value);
  return t;
}

// Bit for bit (an output may hold NaN).
bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

// Every injected fault delivered, and the API error log holds just those.
void check_delivered(std::size_t failed_calls) {
  CHECK(edp_sim::pending_faults() == 0);
  CHECK(edp_sim::api_errors().size() == failed_calls);
}

}  // namespace

TEST_CASE("sim gpu: a kernel launch the device refuses is an error, and the backend goes on",
          "[gpu_sim][gpu_paths][faults]") {
  edp_sim::reset_all();
  auto g = gpu();
  const int64_t rows = 31, cols = 33;  // float4 body and a scalar tail
  Tensor x = filled(*g, rows, cols, 0.5f), y = filled(*g, rows, cols, -2.0f);
  Tensor out = filled(*g, rows, cols, 9.0f), s = filled(*g, 1, 1, 3.0f);
  Tensor diff = filled(*g, rows, cols, 9.0f);
  struct Case {
    const char* op;
    const char* launch;  // the kernel whose launch fails
    std::function<void()> run;
    const Tensor* output;  // unchanged by the failed call (fma_peak zeroes its sink first)
  };
  const Case cases[] = {
      {"relu", "launch:map1_kernel*", [&] { g->relu(x, out); }, &out},
      {"relu_backward", "launch:map2_kernel*", [&] { g->relu_backward(y, x, out); }, &out},
      {"sub", "launch:map2_kernel*", [&] { g->sub(x, y, out); }, &out},
      {"mul", "launch:map2_kernel*", [&] { g->mul(x, y, out); }, &out},
      {"scale", "launch:map1_kernel*", [&] { g->scale(x, 2.0f, out); }, &out},
      {"square", "launch:map1_kernel*", [&] { g->square(x, out); }, &out},
      {"axpy", "launch:map2_kernel*", [&] { g->axpy(0.5f, x, out); }, &out},
      {"add", "launch:map2_kernel*", [&] { g->add(x, y, out); }, &out},
      {"sigmoid", "launch:map1_kernel*", [&] { g->sigmoid(x, out); }, &out},
      {"tanh", "launch:map1_kernel*", [&] { g->tanh(x, out); }, &out},
      {"fill", "launch:map0_kernel*", [&] { g->fill(out, 2.5f); }, &out},
      {"broadcast", "launch:map0_kernel*", [&] { g->broadcast(s, out); }, &out},
      {"sum, first pass", "launch:partial_sum_kernel", [&] { g->sum(x, s); }, &s},
      {"sum, second pass", "launch:finish_sum_kernel", [&] { g->sum(x, s); }, &s},
      {"sub_square_sum, first pass", "launch:partial_sub_square_sum_kernel",
       [&] { g->sub_square_sum(x, y, diff, s); }, &s},
      {"sub_square_sum, second pass", "launch:finish_sum_kernel",
       [&] { g->sub_square_sum(x, y, diff, s); }, &s},
      {"fma_peak", "launch:fma_peak_kernel", [&] { g->fma_peak(8, s); }, nullptr},
  };
  for (const Case& c : cases) {
    INFO(c.op << ": " << c.launch << " refused");
    g->synchronize();
    const std::vector<float> before = c.output ? fetch(*g, *c.output) : std::vector<float>();
    edp_sim::clear_api_errors();
    edp_sim::inject_fault(c.launch, cudaErrorInvalidConfiguration);
    CHECK_THROWS_WITH(c.run(), Contains("cudaGetLastError()") &&
                                   Contains("invalid configuration argument") &&
                                   Contains("kernels.cu:"));
    check_delivered(1);
    // The call stopped at the refused launch: nothing after it ran (a second
    // pass would have written the output from stale partial sums).
    if (c.output) CHECK(same_bits(fetch(*g, *c.output), before));
    // Nothing stale: the same call runs and checks clean.
    CHECK_NOTHROW(c.run());
    CHECK_NOTHROW(g->synchronize());
    CHECK(edp_sim::api_errors().size() == 1);
  }
  // The values after all that are still right.
  g->sub_square_sum(x, y, diff, s);
  CHECK(g->read_scalar(s) == static_cast<float>(rows * cols) * 6.25f);
}

TEST_CASE(
    "sim gpu: out of device memory: one retry after freeing the cache, then an error "
    "that does not linger",
    "[gpu_sim][gpu_paths][faults]") {
  edp_sim::reset_all();
  auto g = gpu();
  { Tensor cached = g->empty(100, 100); }  // back in the pool's cache
  edp_sim::clear_api_errors();
  // The first cudaMalloc of a new size class fails; the pool frees its cache
  // and tries again, which succeeds.
  edp_sim::inject_fault("cudaMalloc", cudaErrorMemoryAllocation, 1);
  Tensor a = g->empty(300, 300);
  check_delivered(1);
  // A kernel launch's check must not report the failed cudaMalloc again.
  CHECK_NOTHROW(g->fill(a, 1.5f));
  CHECK(fetch(*g, a)[89999] == 1.5f);
  // Both tries fail: an error naming the call, the size and the line.
  edp_sim::inject_fault("cudaMalloc", cudaErrorMemoryAllocation, 2);
  CHECK_THROWS_WITH(g->empty(400, 400),
                    Contains("cudaMalloc(640000 bytes) failed: out of memory (device_pool.cpp:"));
  check_delivered(3);
  CHECK_NOTHROW(g->fill(a, 2.5f));
  CHECK(fetch(*g, a)[0] == 2.5f);
  CHECK(edp_sim::api_errors().size() == 3);
}

TEST_CASE("sim gpu: cuBLAS and cuDNN failures are errors naming the call and its status",
          "[gpu_sim][gpu_paths][faults]") {
  edp_sim::reset_all();
  auto g = gpu("cudnn");
  Tensor a = filled(*g, 4, 4, 1.0f), c = g->empty(4, 4), y = g->empty(4, 4);
  edp_sim::inject_fault("cublasSgemm", CUBLAS_STATUS_EXECUTION_FAILED);
  CHECK_THROWS_WITH(g->gemm(Trans::N, Trans::N, 1.0f, a, a, 0.0f, c),
                    Contains("cublasSgemm") && Contains("CUBLAS_STATUS_EXECUTION_FAILED") &&
                        Contains("cuda_backend.cpp:"));
  CHECK_NOTHROW(g->gemm(Trans::N, Trans::N, 1.0f, a, a, 0.0f, c));
  CHECK(fetch(*g, c)[0] == 4.0f);
  edp_sim::inject_fault("cudnnActivationForward", CUDNN_STATUS_EXECUTION_FAILED);
  CHECK_THROWS_WITH(g->relu(a, y), Contains("cudnnActivationForward") &&
                                       Contains("CUDNN_STATUS_EXECUTION_FAILED"));
  edp_sim::inject_fault("cudnnActivationBackward", CUDNN_STATUS_BAD_PARAM);
  CHECK_THROWS_WITH(g->relu_backward(a, a, y),
                    Contains("cudnnActivationBackward") && Contains("CUDNN_STATUS_BAD_PARAM"));
  CHECK_NOTHROW(g->relu(a, y));
  CHECK(fetch(*g, y)[15] == 1.0f);
  CHECK(edp_sim::pending_faults() == 0);
}

TEST_CASE("sim gpu: failed copies and waits are errors, and the device timer can start again",
          "[gpu_sim][gpu_paths][faults]") {
  edp_sim::reset_all();
  auto g = gpu();
  Tensor t = g->empty(2, 2);
  const std::vector<float> host{1, 2, 3, 4};
  edp_sim::inject_fault("cudaMemcpyAsync", cudaErrorInvalidValue);
  CHECK_THROWS_WITH(g->upload(host.data(), t), Contains("cudaMemcpyAsync"));
  g->upload(host.data(), t);
  edp_sim::inject_fault("cudaMemcpyAsync", cudaErrorIllegalAddress);
  std::vector<float> back(4, 0.0f);
  CHECK_THROWS_WITH(g->download(t, back.data()),
                    Contains("an illegal memory access was encountered"));
  CHECK(fetch(*g, t) == host);
  edp_sim::inject_fault("cudaStreamSynchronize", cudaErrorLaunchFailure);
  CHECK_THROWS_WITH(g->synchronize(), Contains("cudaStreamSynchronize"));
  g->start_device_timer();
  edp_sim::inject_fault("cudaEventSynchronize", cudaErrorLaunchFailure);
  CHECK_THROWS_WITH(g->stop_device_timer_s(), Contains("cudaEventSynchronize"));
  g->start_device_timer();  // the failed stop ended the run
  CHECK(g->stop_device_timer_s() >= 0.0);
  CHECK(edp_sim::pending_faults() == 0);
}

TEST_CASE("sim gpu: a backend whose set-up fails is an error, and the next one works",
          "[gpu_sim][gpu_paths][faults]") {
  edp_sim::reset_all();
  for (const char* call : {"cublasCreate", "cudaStreamCreateWithFlags", "cudaEventCreate"}) {
    INFO(call);
    edp_sim::inject_fault(call, std::string(call) == "cublasCreate"
                                    ? static_cast<int>(CUBLAS_STATUS_NOT_INITIALIZED)
                                    : static_cast<int>(cudaErrorMemoryAllocation));
    CHECK_THROWS_WITH(gpu(), Contains(call));
    CHECK(edp_sim::pending_faults() == 0);
    auto g = gpu();
    Tensor s = filled(*g, 1, 1, 7.0f);
    CHECK(g->read_scalar(s) == 7.0f);
  }
}
