// The full training step of an MLP program (DESIGN §2.1) as a Workload:
// what the mlp and batch studies measure. It owns the initial tensors, so
// reset() puts the weights back, and result() reads the loss.
#pragma once

#include <memory>
#include <string>

#include "workloads/mlp.h"
#include "workloads/workload.h"

namespace edp {

// GEMM FLOPs of one training step: 4 N D_in H + 6 N H D_out (DESIGN §2.1).
double mlp_step_flop(const MlpShape& shape);

// Throws std::invalid_argument for an unknown program (listing the valid ones).
// `init` is kept (moved in: pass a temporary, and x is held twice, here and
// on the backend, as memory_check.h counts).
std::unique_ptr<Workload> make_mlp_step(const std::string& program, Backend& backend, MlpData init,
                                        float learning_rate);

}  // namespace edp
