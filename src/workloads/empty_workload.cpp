// The empty workload (see empty_workload.h).
#include "workloads/empty_workload.h"

namespace edp {
namespace {

class EmptyWorkload final : public Workload {
 public:
  explicit EmptyWorkload(Backend& be) : Workload(be) {}
  std::string name() const override { return "empty"; }
  void step() override {}
  void reset() override {}
  double flop_per_step() const override { return 0; }
  double bytes_per_step() const override { return 0; }
};

}  // namespace

std::unique_ptr<Workload> make_empty_workload(Backend& backend) {
  return std::make_unique<EmptyWorkload>(backend);
}

}  // namespace edp
