// Constructors of the tensors and custom_relu MLP programs (one file each;
// autograd's is in mlp_autograd.h, with the class custom_relu derives from),
// used by make_mlp_workload(); workloads are normally created through that.
#pragma once

#include <memory>

#include "workloads/backend.h"
#include "workloads/mlp_workload.h"

namespace edp {

std::unique_ptr<MlpWorkload> make_tensors_mlp(Backend& b, const MlpData& init, float lr);
std::unique_ptr<MlpWorkload> make_custom_relu_mlp(Backend& b, const MlpData& init, float lr);

}  // namespace edp
