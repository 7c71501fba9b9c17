// The autograd MLP (Alg2); mlp_custom_relu.cpp derives Alg3 from it.
#pragma once

#include <memory>
#include <string>

#include "workloads/autograd.h"
#include "workloads/backend.h"
#include "workloads/mlp_workload.h"

namespace edp {

class AutogradMlp : public MlpWorkload {
 public:
  AutogradMlp(Backend& b, const MlpData& init, float lr);
  std::string name() const override { return "autograd"; }
  void run(MlpStage upto) override;

 protected:
  // h_relu = activation(h); clamp_min(h, 0) here.
  virtual autograd::Variable activation(autograd::Tape& tape, const autograd::Variable& h);

 private:
  autograd::Tape tape_;
};

// The autograd program, for make_mlp_workload() (workloads/mlp.h).
std::unique_ptr<MlpWorkload> make_autograd_mlp(Backend& b, const MlpData& init, float lr);

}  // namespace edp
