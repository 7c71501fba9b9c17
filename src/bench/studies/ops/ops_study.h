// The ops study (seed 000, DESIGN §9.1): operator throughput, percent of
// peak, roofline and energy per operation, per op, size, variant and device.
#pragma once

#include <memory>

#include "bench/studies/study.h"

namespace edp::bench {

std::unique_ptr<Study> make_ops_study();

// MemAvailable from <root>/proc/meminfo in bytes; -1 when unknown.
int64_t available_memory_bytes(const std::string& root = "");

}  // namespace edp::bench
