// How big a buffer must be written to push a workload's data out of the
// caches (DESIGN §9.1 cold variant). The flush is its own workload ("flush",
// op_workloads.h) so the ops study can measure it alone and subtract it: a
// cold op's energy cannot be split per step (DESIGN §2 guidance).
#pragma once

#include <cstdint>
#include <string>

namespace edp {

class Backend;

// Used when no cache size can be read: larger than the last-level cache of
// every supported board (TX2: 2 MiB L2 per CPU cluster, 512 KiB GPU L2;
// Xavier: 4 MiB L3; Orin: 4 MiB L3, 4 MiB GPU L2).
constexpr int64_t kFallbackCacheBytes = int64_t{8} << 20;

// Size of the highest-level cache of cpu0 from
// <sysfs_root>/sys/devices/system/cpu/cpu0/cache/index*/{level,size} ("2048K",
// "32M"); kFallbackCacheBytes when none can be read.
int64_t last_level_cache_bytes(const std::string& sysfs_root = "");

// Bytes the flush writes on `backend`: twice its last-level cache (twice, so
// that a non-inclusive or adaptive replacement policy still evicts
// everything). A backend whose describe() has "l2_cache_bytes" (cuda) uses
// that cache; the host backends use last_level_cache_bytes().
int64_t flush_bytes_for(const Backend& backend, const std::string& sysfs_root = "");

}  // namespace edp
