// The fake cuDNN activation calls on their own (cuDNN API reference:
// cudnnSetTensor4dDescriptor, cudnnSetActivationDescriptor,
// cudnnActivationForward/Backward).
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <vector>

#include "cudnn.h"
#include "edp_sim/control.h"
#include "sim_test_support.h"

using edp_sim_test::DeviceFloats;
using edp_sim_test::download;
using edp_sim_test::upload;

TEST_CASE("fake cuDNN descriptors follow the documented rules", "[gpu_sim][cudnn]") {
  edp_sim::reset_all();
  cudnnTensorDescriptor_t t = nullptr;
  REQUIRE(cudnnCreateTensorDescriptor(&t) == CUDNN_STATUS_SUCCESS);
  CHECK(cudnnSetTensor4dDescriptor(t, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 1, 1, 2, 3) ==
        CUDNN_STATUS_SUCCESS);
  CHECK(cudnnSetTensor4dDescriptor(t, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 1, -1, 2, 3) ==
        CUDNN_STATUS_BAD_PARAM);
  CHECK(cudnnSetTensor4dDescriptor(t, static_cast<cudnnTensorFormat_t>(3), CUDNN_DATA_FLOAT, 1, 1,
                                   2, 3) == CUDNN_STATUS_BAD_PARAM);
  CHECK(cudnnSetTensor4dDescriptor(t, CUDNN_TENSOR_NCHW, static_cast<cudnnDataType_t>(15), 1, 1, 2,
                                   3) == CUDNN_STATUS_BAD_PARAM);
  CHECK(cudnnSetTensor4dDescriptor(t, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 1 << 16, 1 << 16, 2,
                                   1) == CUDNN_STATUS_NOT_SUPPORTED);  // > 2 Giga-elements
  cudnnActivationDescriptor_t act = nullptr;
  REQUIRE(cudnnCreateActivationDescriptor(&act) == CUDNN_STATUS_SUCCESS);
  CHECK(cudnnSetActivationDescriptor(act, static_cast<cudnnActivationMode_t>(7),
                                     CUDNN_PROPAGATE_NAN, 0.0) == CUDNN_STATUS_BAD_PARAM);
  // cudnnNanPropagation_t has no value but its two enumerators that C++ can
  // form (tests/gpu_sim/include/cudnn.h): the fake's check of it is for C callers.
  cudnnDestroyActivationDescriptor(act);
  cudnnDestroyTensorDescriptor(t);
}

TEST_CASE("fake cuDNN ReLU forward and backward, NaN options, shapes and aliasing",
          "[gpu_sim][cudnn]") {
  edp_sim::reset_all();
  cudnnHandle_t h = nullptr;
  REQUIRE(cudnnCreate(&h) == CUDNN_STATUS_SUCCESS);
  cudnnTensorDescriptor_t d = nullptr, other = nullptr;
  REQUIRE(cudnnCreateTensorDescriptor(&d) == CUDNN_STATUS_SUCCESS);
  REQUIRE(cudnnCreateTensorDescriptor(&other) == CUDNN_STATUS_SUCCESS);
  REQUIRE(cudnnSetTensor4dDescriptor(d, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 1, 1, 2, 3) ==
          CUDNN_STATUS_SUCCESS);
  REQUIRE(cudnnSetTensor4dDescriptor(other, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 1, 1, 3, 2) ==
          CUDNN_STATUS_SUCCESS);
  cudnnActivationDescriptor_t keep = nullptr, drop = nullptr;
  REQUIRE(cudnnCreateActivationDescriptor(&keep) == CUDNN_STATUS_SUCCESS);
  REQUIRE(cudnnCreateActivationDescriptor(&drop) == CUDNN_STATUS_SUCCESS);
  REQUIRE(cudnnSetActivationDescriptor(keep, CUDNN_ACTIVATION_RELU, CUDNN_PROPAGATE_NAN, 0.0) ==
          CUDNN_STATUS_SUCCESS);
  REQUIRE(cudnnSetActivationDescriptor(drop, CUDNN_ACTIVATION_RELU, CUDNN_NOT_PROPAGATE_NAN, 0.0) ==
          CUDNN_STATUS_SUCCESS);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  DeviceFloats x(6), y(6), dy(6), dx(6);
  upload(x, {-2, -0.5f, 0.5f, 3, nan, 1});
  upload(dy, {10, 20, 30, 40, 50, 60});
  const float one = 1.0f, zero = 0.0f;
  REQUIRE(cudnnActivationForward(h, keep, &one, d, x.get(), &zero, d, y.get()) ==
          CUDNN_STATUS_SUCCESS);
  auto out = download(y, 6);
  CHECK(out[0] == 0.0f);
  CHECK(out[1] == 0.0f);
  CHECK(out[2] == 0.5f);
  CHECK(out[3] == 3.0f);
  CHECK(std::isnan(out[4]));
  REQUIRE(cudnnActivationForward(h, drop, &one, d, x.get(), &zero, d, y.get()) ==
          CUDNN_STATUS_SUCCESS);
  CHECK(download(y, 6)[4] == 0.0f);
  REQUIRE(cudnnActivationBackward(h, keep, &one, d, x.get(), d, dy.get(), d, x.get(), &zero, d,
                                  dx.get()) == CUDNN_STATUS_SUCCESS);
  out = download(dx, 6);
  CHECK(out[0] == 0.0f);
  CHECK(out[2] == 30.0f);
  CHECK(out[5] == 60.0f);
  // Shapes must agree; only dx == dy may alias.
  CHECK(cudnnActivationForward(h, keep, &one, d, x.get(), &zero, other, y.get()) ==
        CUDNN_STATUS_BAD_PARAM);
  CHECK(cudnnActivationBackward(h, keep, &one, d, x.get(), d, dy.get(), d, x.get(), &zero, d,
                                x.get()) == CUDNN_STATUS_BAD_PARAM);
  CHECK(cudnnActivationBackward(h, keep, &one, d, x.get(), d, dy.get(), d, x.get(), &zero, d,
                                dy.get()) == CUDNN_STATUS_SUCCESS);
  // A tensor larger than its allocation.
  DeviceFloats small(4);
  CHECK(cudnnActivationForward(h, keep, &one, d, small.get(), &zero, d, y.get()) ==
        CUDNN_STATUS_EXECUTION_FAILED);
  REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
  cudnnDestroyActivationDescriptor(keep);
  cudnnDestroyActivationDescriptor(drop);
  cudnnDestroyTensorDescriptor(d);
  cudnnDestroyTensorDescriptor(other);
  CHECK(cudnnDestroy(h) == CUDNN_STATUS_SUCCESS);
}
