// The "sequential" backend: plain single-thread loops with double
// accumulators. It is the correctness oracle for the CPU and CUDA backends
// and the baseline of the speed-up tables (seed paper 003's sequential mode).
#pragma once

#include <memory>

#include "workloads/backend.h"

namespace edp {

std::unique_ptr<Backend> make_reference_backend();

}  // namespace edp
