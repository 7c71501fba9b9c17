// The batch study (seed 001, DESIGN §9.2): the MLP programs with N swept on
// the layer shapes of named sizes, CPU against GPU.
#pragma once

#include <memory>

#include "bench/studies/study.h"

namespace edp::bench {

std::unique_ptr<Study> make_batch_study();

}  // namespace edp::bench
