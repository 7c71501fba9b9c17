// The MLP training step as a Workload (see mlp_step.h).
#include "workloads/mlp_step.h"

namespace edp {
namespace {

class MlpStep final : public Workload {
 public:
  MlpStep(const std::string& program, Backend& be, const MlpData& init, float lr)
      : Workload(be), init_(init), mlp_(make_mlp_workload(program, be, init_, lr)) {}
  std::string name() const override { return mlp_->name(); }
  void step() override { mlp_->step(); }
  void reset() override { mlp_->reset(init_); }
  double flop_per_step() const override { return mlp_step_flop(init_.shape); }
  // The GEMM operands dominate; a byte count would depend on the backend's
  // fusion and caching, so none is claimed.
  double bytes_per_step() const override { return 0; }
  double result() override { return backend_.read_scalar(mlp_->loss()); }

 private:
  MlpData init_;
  std::unique_ptr<MlpWorkload> mlp_;
};

}  // namespace

double mlp_step_flop(const MlpShape& s) {
  return 4.0 * s.n * s.d_in * s.h + 6.0 * s.n * s.h * s.d_out;
}

std::unique_ptr<Workload> make_mlp_step(const std::string& program, Backend& backend,
                                        const MlpData& init, float learning_rate) {
  return std::make_unique<MlpStep>(program, backend, init, learning_rate);
}

}  // namespace edp
