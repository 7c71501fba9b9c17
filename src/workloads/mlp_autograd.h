// The autograd MLP (Alg2); mlp_custom_relu.cpp derives Alg3 from it.
#pragma once

#include "workloads/autograd.h"
#include "workloads/mlp_variants.h"

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

}  // namespace edp
