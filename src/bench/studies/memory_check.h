// Sizes checked against memory before anything runs (DESIGN §7): what each
// selected study says its items hold (Study::memory_needs: for an MLP item,
// its workload's own tensor list, mlp_memory_computed, the numbers
// memory.csv reports), against what this process may still use.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "bench/config/config.h"
#include "bench/studies/study.h"

namespace edp::bench {

// What this process may still allocate: the smaller of MemAvailable in
// /proc/meminfo and, for its cgroup and each ancestor with a limit, the limit
// less the usage (v2 memory.max - memory.current; v1 memory.limit_in_bytes -
// memory.usage_in_bytes), the cgroup found from /proc/self/cgroup. `root`
// re-roots /proc and /sys (tests). bytes < 0: nothing could be read.
struct MemoryLimit {
  int64_t bytes = -1;
  std::string source;  // "MemAvailable in /proc/meminfo", "cgroup /x: memory.max ... "
};
MemoryLimit memory_limit(const std::string& root);

// The bytes one training item holds: its tensors (every kind that owns
// storage) plus the host copies of its initial data (x, y, w1, w2), once:
// the workload keeps the copy it is given (workloads/mlp_step.h), so x is
// held twice, not three times (issue 33: 1.56x under the peak).
int64_t mlp_item_bytes(const std::string& workload, const SizeSpec& shape);

// What a run holds beyond its item's own bytes, above the resident size of
// the process when the check runs (the limit is net of it): the sampler's
// ring, the plan summary, the GEMM library's buffers, allocator slack.
// Measured with scripts/memory-peaks.sh on a 2-CPU x86 machine (the table
// in docs/reliability.md): 64 to 74 MB while every tensor of the item is
// smaller than 32 MiB, 6 to 17 MB once one is larger (the startup's freed
// heap is then not what grows, and the GEMMs run on other buffers), so the
// allowance has two levels; with them the estimate is within 1.0 to 1.05
// times the measured peak from a 2x4 item to 16384x9000, both programs.
constexpr int64_t kRunAllowanceBytes = int64_t{72} << 20;
constexpr int64_t kRunAllowanceLargeBytes = int64_t{24} << 20;
constexpr int64_t kLargeTensorBytes = int64_t{32} << 20;
int64_t run_allowance_bytes(int64_t largest_tensor_bytes);

// An MLP study's needs: each shape (a size at the largest N the study runs
// it at) with each of the config's workloads, named "<study> <workload>
// size <name> (N=<n>)" at the size's place.
std::vector<MemoryNeed> mlp_memory_needs(const Config& cfg, const std::string& study,
                                         const std::vector<SizeSpec>& shapes);

// One line per need of the selected studies (in the config's order), on each
// device, whose bytes and kRunAllowanceBytes exceed `limit`: the MLP study's sizes, the stages
// study's sizes, the batch study's sizes at its largest N and the ops study's
// square GEMMs. CPU and reference devices use host memory, and a GPU does too
// when `gpu_shares_host_memory` (a Jetson: one DRAM). Each names the item,
// the bytes, the limit and the config's place for the value.
std::vector<std::string> memory_problems(const Config& cfg, const MemoryLimit& limit,
                                         bool gpu_shares_host_memory);

}  // namespace edp::bench
