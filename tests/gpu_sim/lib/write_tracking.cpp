// GPU simulator: the race rule for global memory (see write_tracking.h), and
// the entry points of GCC's -fsanitize=thread instrumentation that feed it
// (GCC's tsan.cc emits calls to __tsan_read/write{1,2,4,8,16},
// __tsan_{read,write}_range, __tsan_vptr_{read,update}, __tsan_init and, for
// atomic builtins, __tsan_atomic*; their signatures are the ThreadSanitizer runtime's,
// compiler-rt's tsan_interface.h). Only the kernel sources carry the
// instrumentation; the runtime is never linked, so these definitions are the
// ones the calls reach.
#include "write_tracking.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "fake_memory.h"
#include "fake_state.h"

namespace edp_sim {

namespace {

// One shadow word per 4 bytes of an allocation: the launch (epoch) that last
// stored to it in the high 32 bits, then an atomic flag, then the block.
constexpr std::uint64_t kAtomic = std::uint64_t{1} << 31;
constexpr std::uint64_t kBlockMask = kAtomic - 1;

struct Tracking {
  const std::string* kernel = nullptr;
  dim3 grid;
  std::uint64_t seed = 0;
  std::uint64_t launch_index = 0;
  std::uint64_t epoch = 0;
  std::uint64_t block = 0;
  std::vector<Allocation*> allocations;  // sorted by base, for the launch
  Allocation* last = nullptr;            // the allocation of the previous store
};

std::uint64_t g_epoch = 0;
thread_local Tracking* t_tracking = nullptr;

Allocation* find(Tracking& t, const char* p) {
  if (t.last != nullptr && p >= t.last->base && p < t.last->base + t.last->bytes) return t.last;
  auto it = std::upper_bound(t.allocations.begin(), t.allocations.end(), p,
                             [](const char* q, const Allocation* a) { return q < a->base; });
  if (it == t.allocations.begin()) return nullptr;
  Allocation* a = *(it - 1);
  if (p >= a->base + a->bytes) return nullptr;
  t.last = a;
  return a;
}

std::string block_name(const Tracking& t, std::uint64_t linear) {
  char text[64];
  std::snprintf(text, sizeof text, "(%llu,%llu,%llu)",
                static_cast<unsigned long long>(linear % t.grid.x),
                static_cast<unsigned long long>(linear / t.grid.x % t.grid.y),
                static_cast<unsigned long long>(linear / t.grid.x / t.grid.y));
  return text;
}

[[noreturn]] void report_race(const Tracking& t, const Allocation& a, std::size_t word,
                              std::uint64_t owner, bool owner_atomic, bool atomic) {
  const std::size_t offset = word * 4;
  diagnose(
      "kernel %s: block %s %s to %p (byte %zu of the allocation [%p, +%zu)), which block %s "
      "%s in the same launch: blocks cannot order their stores, so on a GPU one of the two "
      "updates is lost; combine them with atomicAdd, or give each block its own element "
      "(schedule seed %llu, grid %llu since the seed was set: EDPBENCH_SIM_SEED reproduces it)",
      t.kernel->c_str(), block_name(t, t.block).c_str(),
      atomic ? "added atomically" : "stored without an atomic", static_cast<void*>(a.base + offset),
      offset, static_cast<void*>(a.base), a.bytes, block_name(t, owner).c_str(),
      owner_atomic ? "added to atomically" : "stored to", static_cast<unsigned long long>(t.seed),
      static_cast<unsigned long long>(t.launch_index));
  std::abort();
}

}  // namespace

void begin_write_tracking(const std::string& kernel, dim3 grid, std::uint64_t seed,
                          std::uint64_t launch_index) {
  static Tracking tracking;  // one launch at a time: the API lock
  tracking = Tracking{};
  tracking.kernel = &kernel;
  tracking.grid = grid;
  tracking.seed = seed;
  tracking.launch_index = launch_index;
  tracking.epoch = ++g_epoch;
  tracking.allocations = live_allocation_list();
  t_tracking = &tracking;
}

void set_writing_block(std::uint64_t linear) {
  if (t_tracking != nullptr) t_tracking->block = linear & kBlockMask;
}

void end_write_tracking() { t_tracking = nullptr; }

void note_write(const void* address, std::size_t bytes, bool atomic) {
  Tracking* t = t_tracking;
  if (t == nullptr || bytes == 0) return;
  const char* p = static_cast<const char*>(address);
  Allocation* a = find(*t, p);
  if (a == nullptr) return;
  if (!a->shadow) a->shadow = std::make_shared<std::vector<std::uint64_t>>((a->bytes + 3) / 4, 0);
  std::vector<std::uint64_t>& shadow = *a->shadow;
  const std::size_t first = static_cast<std::size_t>(p - a->base) / 4;
  std::size_t last = (static_cast<std::size_t>(p - a->base) + bytes - 1) / 4;
  if (last >= shadow.size()) last = shadow.size() - 1;  // past the end: the copy checks say so
  const std::uint64_t mine = (t->epoch << 32) | (atomic ? kAtomic : 0) | t->block;
  for (std::size_t w = first; w <= last; ++w) {
    std::uint64_t& entry = shadow[w];
    if ((entry >> 32) != t->epoch) {
      entry = mine;
      continue;
    }
    const std::uint64_t owner = entry & kBlockMask;
    const bool owner_atomic = (entry & kAtomic) != 0;
    if (owner == t->block) {
      if (!atomic) entry = mine;  // a plain store of its own: the word is now plain
      continue;
    }
    if (atomic && owner_atomic) continue;  // atomics of several blocks: what they are for
    report_race(*t, *a, w, owner, owner_atomic, atomic);
  }
}

bool write_tracking_instrumented() {
#if defined(EDP_SIM_KERNELS_INSTRUMENTED) && EDP_SIM_KERNELS_INSTRUMENTED
  return true;
#else
  return false;
#endif
}

}  // namespace edp_sim

// ---- GCC -fsanitize=thread entry points ---------------------------------------------
// Not defined when this library is itself built with ThreadSanitizer: then
// the real runtime is linked and owns these names.
#if !defined(__SANITIZE_THREAD__)
extern "C" {

void __tsan_init() {}
void __tsan_func_entry(void*) {}
void __tsan_func_exit() {}

void __tsan_read1(void*) {}
void __tsan_read2(void*) {}
void __tsan_read4(void*) {}
void __tsan_read8(void*) {}
void __tsan_read16(void*) {}
void __tsan_unaligned_read2(const void*) {}
void __tsan_unaligned_read4(const void*) {}
void __tsan_unaligned_read8(const void*) {}
void __tsan_unaligned_read16(const void*) {}
void __tsan_read_range(void*, unsigned long) {}
void __tsan_vptr_read(void**) {}
void __tsan_vptr_update(void**, void*) {}
void __tsan_volatile_read1(void*) {}
void __tsan_volatile_read2(void*) {}
void __tsan_volatile_read4(void*) {}
void __tsan_volatile_read8(void*) {}
void __tsan_volatile_read16(void*) {}

void __tsan_write1(void* p) { edp_sim::note_write(p, 1, false); }
void __tsan_write2(void* p) { edp_sim::note_write(p, 2, false); }
void __tsan_write4(void* p) { edp_sim::note_write(p, 4, false); }
void __tsan_write8(void* p) { edp_sim::note_write(p, 8, false); }
void __tsan_write16(void* p) { edp_sim::note_write(p, 16, false); }
void __tsan_unaligned_write2(void* p) { edp_sim::note_write(p, 2, false); }
void __tsan_unaligned_write4(void* p) { edp_sim::note_write(p, 4, false); }
void __tsan_unaligned_write8(void* p) { edp_sim::note_write(p, 8, false); }
void __tsan_unaligned_write16(void* p) { edp_sim::note_write(p, 16, false); }
void __tsan_write_range(void* p, unsigned long size) { edp_sim::note_write(p, size, false); }
void __tsan_volatile_write1(void* p) { edp_sim::note_write(p, 1, false); }
void __tsan_volatile_write2(void* p) { edp_sim::note_write(p, 2, false); }
void __tsan_volatile_write4(void* p) { edp_sim::note_write(p, 4, false); }
void __tsan_volatile_write8(void* p) { edp_sim::note_write(p, 8, false); }
void __tsan_volatile_write16(void* p) { edp_sim::note_write(p, 16, false); }

// Atomic builtins in instrumented host code (a function-local static's guard,
// a std::mutex's state): done as asked, sequentially consistent.
unsigned char __tsan_atomic8_load(const volatile unsigned char* a, int) {
  return __atomic_load_n(a, __ATOMIC_SEQ_CST);
}
void __tsan_atomic8_store(volatile unsigned char* a, unsigned char v, int) {
  __atomic_store_n(a, v, __ATOMIC_SEQ_CST);
}
int __tsan_atomic32_load(const volatile int* a, int) {
  return __atomic_load_n(a, __ATOMIC_SEQ_CST);
}
void __tsan_atomic32_store(volatile int* a, int v, int) {
  __atomic_store_n(a, v, __ATOMIC_SEQ_CST);
}
int __tsan_atomic32_fetch_add(volatile int* a, int v, int) {
  return __atomic_fetch_add(a, v, __ATOMIC_SEQ_CST);
}
long __tsan_atomic64_load(const volatile long* a, int) {
  return __atomic_load_n(a, __ATOMIC_SEQ_CST);
}
void __tsan_atomic64_store(volatile long* a, long v, int) {
  __atomic_store_n(a, v, __ATOMIC_SEQ_CST);
}
long __tsan_atomic64_fetch_add(volatile long* a, long v, int) {
  return __atomic_fetch_add(a, v, __ATOMIC_SEQ_CST);
}
void __tsan_atomic_thread_fence(int) { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
void __tsan_atomic_signal_fence(int) { __atomic_signal_fence(__ATOMIC_SEQ_CST); }

}  // extern "C"
#endif
