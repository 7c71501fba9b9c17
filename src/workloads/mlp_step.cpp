// The MLP training step as a Workload (see mlp_step.h).
#include "workloads/mlp_step.h"

#include <utility>

namespace edp {
namespace {

class MlpStep final : public Workload {
 public:
  // `init` by value, moved in: the caller's temporary is not a third copy of
  // x beside init_ and the backend's (issue 33: the memory check counted two).
  MlpStep(const std::string& program, Backend& be, MlpData init, float lr)
      : Workload(be), init_(std::move(init)), mlp_(make_mlp_workload(program, be, init_, lr)) {}
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

std::unique_ptr<Workload> make_mlp_step(const std::string& program, Backend& backend, MlpData init,
                                        float learning_rate) {
  return std::make_unique<MlpStep>(program, backend, std::move(init), learning_rate);
}

}  // namespace edp
