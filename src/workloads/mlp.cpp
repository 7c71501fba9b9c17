#include "workloads/mlp.h"

#include <stdexcept>

#include "workloads/mlp_autograd.h"
#include "workloads/mlp_variants.h"

namespace edp {

const std::vector<std::string>& mlp_workload_names() {
  static const std::vector<std::string> names{"tensors", "autograd", "custom_relu"};
  return names;
}

std::unique_ptr<MlpWorkload> make_mlp_workload(const std::string& name, Backend& backend,
                                               const MlpData& init, float learning_rate) {
  if (name == "tensors") return make_tensors_mlp(backend, init, learning_rate);
  if (name == "autograd") return make_autograd_mlp(backend, init, learning_rate);
  if (name == "custom_relu") return make_custom_relu_mlp(backend, init, learning_rate);
  throw std::invalid_argument("unknown workload '" + name +
                              "' (expected tensors, autograd or custom_relu)");
}

}  // namespace edp
