// `gemm: auto` on the cpu backend (DESIGN §2.1): which GEMM path (Eigen or
// OpenBLAS) a configuration's training steps run on, chosen by measurement.
#pragma once

#include "workloads/backend.h"
#include "workloads/mlp.h"

namespace edp::bench {

// Times whole training steps with each GEMM path the backend offers and
// leaves the backend on the chosen one (recorded in its describe()), with the
// workload reset to `init`. Does nothing when the backend has one path.
void choose_gemm_path(Backend& be, MlpWorkload& mlp, const MlpData& init);

}  // namespace edp::bench
