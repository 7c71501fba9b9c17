// Constructors of the three MLP programs (one file each), used by
// make_mlp_workload(); workloads are normally created through that.
#pragma once

#include <memory>

#include "workloads/backend.h"
#include "workloads/mlp_workload.h"

namespace edp {

std::unique_ptr<MlpWorkload> make_tensors_mlp(Backend& b, const MlpData& init, float lr);
std::unique_ptr<MlpWorkload> make_autograd_mlp(Backend& b, const MlpData& init, float lr);
std::unique_ptr<MlpWorkload> make_custom_relu_mlp(Backend& b, const MlpData& init, float lr);

}  // namespace edp
