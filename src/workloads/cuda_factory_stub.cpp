// The CUDA entry points of a build without CUDA: every GPU request fails with
// a message that says how to get a build that has it.
#include "edpbench/config.h"

#if !EDPBENCH_HAVE_CUDA

#include <stdexcept>

#include "workloads/cuda_factory.h"

namespace edp {

namespace {
const char* const kNoCuda =
    "this build has no CUDA support (configure with -DEDPBENCH_WITH_CUDA=ON)";
}  // namespace

std::string cuda_unavailable_reason(int /*index*/) { return kNoCuda; }

std::unique_ptr<Backend> make_cuda_backend(const CudaOptions& /*options*/) {
  throw std::runtime_error(kNoCuda);
}

std::map<std::string, std::string> cuda_device_info(int /*index*/) { return {}; }

void cuda_release_device(int /*index*/) {}

bool cuda_primary_context_active(int /*index*/) { return false; }

}  // namespace edp

#endif  // !EDPBENCH_HAVE_CUDA
