// The three two-layer MLP training programs of DESIGN §2 (from PyTorch's
// "Learning PyTorch with Examples", seed paper 002):
//
//   h = x w1;  h_relu = max(h, 0);  y_pred = h_relu w2;  loss = sum((y_pred - y)^2)
//   g = 2 (y_pred - y);  grad_w2 = h_relu^T g;  grad_h = (g w2^T) masked where h < 0
//   grad_w1 = x^T grad_h;  w1 -= lr grad_w1;  w2 -= lr grad_w2
//
// "tensors" writes forward and backward by hand, "autograd" records the
// forward on a Tape and calls backward(), "custom_relu" is autograd with ReLU
// as a user-defined Function. For the same seed and backend they follow the
// same loss trajectory up to float rounding.
//
// This header is the factory: the programs by name. What every program is
// (MlpWorkload) and its data are in workloads/mlp_workload.h.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "workloads/backend.h"
#include "workloads/mlp_workload.h"

namespace edp {

const std::vector<std::string>& mlp_workload_names();  // tensors, autograd, custom_relu

// Allocates and uploads everything; throws std::invalid_argument for an
// unknown name (listing the valid ones).
std::unique_ptr<MlpWorkload> make_mlp_workload(const std::string& name, Backend& backend,
                                               const MlpData& init, float learning_rate);

}  // namespace edp
