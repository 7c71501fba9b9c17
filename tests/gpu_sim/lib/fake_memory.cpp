// GPU simulator: device memory (see fake_memory.h).
#include "fake_memory.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <map>

#include "device_limits.h"
#include "edp_sim/control.h"
#include "fake_state.h"
#include "fake_stream.h"

namespace edp_sim {

namespace {

std::map<std::uintptr_t, Allocation>& live() {
  // Never destroyed: device state outlives every static destructor (and
  // LeakSanitizer, which runs after them, still sees it reachable).
  static auto* m = new std::map<std::uintptr_t, Allocation>;
  return *m;
}
std::size_t g_used = 0;

// [used, size) holds the canary. A reuse by a smaller tensor sets `target`
// below `used`; the bytes in between are the previous tensor's until the
// operations queued before the reuse (sequence <= `after`) have run.
struct SlackGuard {
  std::size_t used = 0;
  std::size_t size = 0;
  std::size_t target = 0;
  std::uint64_t after = 0;
};
std::map<std::uintptr_t, SlackGuard>& guards() {
  // Never destroyed: device state outlives every static destructor (and
  // LeakSanitizer, which runs after them, still sees it reachable).
  static auto* m = new std::map<std::uintptr_t, SlackGuard>;
  return *m;
}

// The canary is a signalling NaN with a payload no arithmetic produces (any
// operation on it returns a quiet NaN), so a kernel writing past a tensor's
// end changes it even when it copies an input's slack.
constexpr std::uint32_t kCanary = 0x7f8badc0u;

void fill_canary(char* from, std::size_t bytes) {
  for (std::size_t i = 0; i < bytes; i += 4) {
    std::memcpy(from + i, &kCanary, bytes - i < 4 ? bytes - i : 4);
  }
}

bool canary_intact(const char* from, std::size_t bytes, std::size_t* first_bad) {
  for (std::size_t i = 0; i < bytes; i += 4) {
    const std::size_t n = bytes - i < 4 ? bytes - i : 4;
    if (std::memcmp(from + i, &kCanary, n) != 0) {
      *first_bad = i;
      return false;
    }
  }
  return true;
}

void check_guard(std::uintptr_t block, const SlackGuard& g, const std::string& after) {
  std::size_t bad = 0;
  const char* slack = reinterpret_cast<const char*>(block) + g.used;
  if (!canary_intact(slack, g.size - g.used, &bad)) {
    std::uint32_t word = 0;
    std::memcpy(&word, slack + bad / 4 * 4, 4);
    diagnose(
        "%s wrote past the end of a tensor: byte %zu after the %zu used bytes of the pool "
        "block %p (size %zu) now holds 0x%08x; it is rounding slack nothing may touch",
        after.c_str(), bad, g.used, reinterpret_cast<void*>(block), g.size, word);
    std::abort();
  }
}

}  // namespace

cudaError_t allocate_device(int device, std::size_t bytes, void** out) {
  if (bytes > DeviceLimits::kGlobalBytes - g_used) return cudaErrorMemoryAllocation;
  const std::size_t rounded = (bytes + 255) / 256 * 256;
  char* p = static_cast<char*>(std::aligned_alloc(256, rounded == 0 ? 256 : rounded));
  if (p == nullptr) return cudaErrorMemoryAllocation;
  std::memset(p, 0xff, rounded == 0 ? 256 : rounded);
  live()[reinterpret_cast<std::uintptr_t>(p)] = Allocation{p, bytes, device, nullptr};
  g_used += bytes;
  *out = p;
  return cudaSuccess;
}

bool free_device(void* p) {
  auto it = live().find(reinterpret_cast<std::uintptr_t>(p));
  if (it == live().end()) return false;
  auto g = guards().find(it->first);
  if (g != guards().end()) {
    check_guard(g->first, g->second, "a kernel or copy before cudaFree");
    guards().erase(g);
  }
  g_used -= it->second.bytes;
  std::free(it->second.base);
  live().erase(it);
  return true;
}

void free_device_memory(int device) {
  for (auto it = live().begin(); it != live().end();) {
    if (it->second.device != device) {
      ++it;
      continue;
    }
    guards().erase(it->first);
    g_used -= it->second.bytes;
    std::free(it->second.base);
    it = live().erase(it);
  }
}

const Allocation* allocation_of(const void* p, std::size_t bytes) {
  const auto addr = reinterpret_cast<std::uintptr_t>(p);
  auto it = live().upper_bound(addr);
  if (it == live().begin()) return nullptr;
  --it;
  const Allocation& a = it->second;
  if (addr < it->first || addr - it->first > a.bytes) return nullptr;
  if (bytes > a.bytes - (addr - it->first)) return nullptr;
  return &a;
}

bool is_device_pointer(const void* p) {
  const auto addr = reinterpret_cast<std::uintptr_t>(p);
  auto it = live().upper_bound(addr);
  if (it == live().begin()) return false;
  --it;
  return addr - it->first < (it->second.bytes == 0 ? 1 : it->second.bytes);
}

std::string explain_range(const void* p, std::size_t bytes) {
  char text[256];
  const auto addr = reinterpret_cast<std::uintptr_t>(p);
  auto it = live().upper_bound(addr);
  if (it != live().begin()) {
    --it;
    const std::size_t offset = addr - it->first;
    if (offset <= it->second.bytes) {
      std::snprintf(text, sizeof text,
                    "[%p, +%zu) runs %zu bytes past the end of its allocation [%p, +%zu)", p, bytes,
                    offset + bytes - it->second.bytes, static_cast<void*>(it->second.base),
                    it->second.bytes);
      return text;
    }
  }
  std::snprintf(text, sizeof text, "[%p, +%zu) lies in no device allocation", p, bytes);
  return text;
}

std::size_t used_bytes() { return g_used; }
std::size_t allocation_count() { return live().size(); }

std::vector<Allocation*> live_allocation_list() {
  std::vector<Allocation*> out;
  out.reserve(live().size());
  for (auto& entry : live()) out.push_back(&entry.second);
  return out;
}

void check_guards(const std::string& after) {
  for (const auto& g : guards()) check_guard(g.first, g.second, after);
}

void settle_guards(std::uint64_t oldest_pending) {
  for (auto& entry : guards()) {
    SlackGuard& g = entry.second;
    if (g.target >= g.used || oldest_pending <= g.after) continue;
    fill_canary(reinterpret_cast<char*>(entry.first) + g.target, g.used - g.target);
    g.used = g.target;
  }
}

void guard_slack(void* block, std::size_t used, std::size_t size) {
  Guard lock(api_lock());
  const auto key = reinterpret_cast<std::uintptr_t>(block);
  const Allocation* a = allocation_of(block, size);
  if (a == nullptr || a->base != block || used > size) {
    diagnose("guard_slack(%p, %zu, %zu): not a live allocation of at least that size", block, used,
             size);
    std::abort();
  }
  auto it = guards().find(key);
  if (it != guards().end()) {
    // Reuse. The pool does not synchronise before handing a block out again
    // (device_pool.cpp), so neither does this: work queued for the previous
    // tensor may still run, and may write up to that tensor's end.
    SlackGuard& g = it->second;
    check_guard(key, g, "work on the block's previous tensor");
    if (used >= g.used) {
      g = SlackGuard{used, size, used, 0};  // [used, size) is canary already
    } else {
      g.target = used;
      g.after = last_sequence();
      settle_guards(oldest_pending_sequence());
    }
    return;
  }
  guards()[key] = SlackGuard{used, size, used, 0};
  fill_canary(static_cast<char*>(block) + used, size - used);
}

std::size_t live_allocations() {
  Guard lock(api_lock());
  return live().size();
}

std::size_t live_bytes() {
  Guard lock(api_lock());
  return g_used;
}

}  // namespace edp_sim
