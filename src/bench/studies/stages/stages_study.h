// The stages study (seed 004, DESIGN §2.2, §9.3): per program x size x
// device, one item with three parts (forward, forward_backward, step), each
// measured with the full protocol; energy per stage by differencing them; an
// extra pass after the parts times each stage and reads memory per tensor.
// Rows go to stages.csv (the commit file), memory.csv, runs.csv, rails.csv.
// See docs/stages.md.
#pragma once

#include <memory>

#include "bench/studies/study.h"

namespace edp::bench {

std::unique_ptr<Study> make_stages_study();

// Whether the stages study plans the GPU ReLU variant (a build with cuDNN):
// every GPU item then has a `relu` key parameter, and each GPU device gets a
// second item with the path gpu.relu does not name.
bool stages_relu_variants();

}  // namespace edp::bench
