// GPU simulator: the grid runner (see simt_block.h). Rules, after the CUDA
// C++ Programming Guide:
//  - "Synchronization Functions": __syncthreads() waits until every thread of
//    the block has reached it; in conditional code the condition must be the
//    same for the whole block. A barrier some thread never reaches (it exited,
//    or waits elsewhere) aborts.
//  - "Thread Hierarchy": "Thread blocks are required to execute
//    independently: It must be possible to execute them in any order, in
//    parallel or in series." The runner keeps as many blocks resident as the
//    device holds (device_limits.h) and switches between them at barriers and
//    at random points (a warp collective, an atomic, a thread's end), from a
//    seeded generator, so code that assumes an order of blocks sees another.
//  - "Memory Fence Functions" / "Atomic Functions": blocks of one launch can
//    only combine their results in global memory through atomics; two blocks
//    storing to one address without them race (one update is lost on a GPU).
//    The write tracking (write_tracking.h) reports it.
//  - "__shared__": a variable "has the lifetime of the block" and is not
//    initialised: each block starts with its shared memory filled with NaN
//    bytes, and sees only its own.
//  - "Warp Shuffle Functions" / "Warp Vote Functions": each calling lane must
//    be in `mask`, every lane in `mask` must execute the same intrinsic with
//    the same mask, and width is a power of two <= warpSize. A lane reading
//    from an inactive lane gets an undefined value: here it aborts.
#include "simt_block.h"

#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>
#include <vector>

#include "device_limits.h"
#include "edp_sim/control.h"
#include "edp_sim/device.h"
#include "fake_state.h"
#include "fiber.h"
#include "write_tracking.h"

namespace edp_sim {

namespace {

enum class State { kRunnable, kAtBarrier, kAtWarp, kDone };

struct Request {
  WarpOp op = WarpOp::kShflIdx;
  unsigned mask = 0;
  std::uint64_t value = 0;
  int arg = 0;
  int width = 32;
};

struct SimThread {
  ThreadIndex index;
  int linear = 0;
  State state = State::kRunnable;
  Request request;
  std::uint64_t result = 0;
  Fiber* fiber = nullptr;
};

struct Block {
  std::vector<SimThread> threads;
  // The block's shared memory while another block's is in the section.
  std::vector<unsigned char> shared;
  std::uint64_t linear = 0;  // x + gridDim.x (y + gridDim.y z)
  int at_barrier = 0;
  int barriers_passed = 0;
  int done = 0;
  std::size_t cursor = 0;  // the thread to resume next
};

struct Grid {
  const std::string* kernel = nullptr;
  const std::function<void()>* body = nullptr;
  SharedRegion shared;
  Block* loaded = nullptr;  // whose shared memory the section holds
};

thread_local Grid* t_grid = nullptr;
thread_local Block* t_block = nullptr;
thread_local SimThread* t_thread = nullptr;
// Fiber stacks, reused by every launch (one grid runs at a time: the API lock).
std::vector<std::unique_ptr<Fiber>>& fibers() {
  // Never destroyed: device state outlives every static destructor (and
  // LeakSanitizer, which runs after them, still sees it reachable).
  static auto* f = new std::vector<std::unique_ptr<Fiber>>;
  return *f;
}

std::uint64_t initial_seed() {
  const char* text = std::getenv("EDPBENCH_SIM_SEED");
  if (text == nullptr || *text == '\0') return 1;
  char* end = nullptr;
  const unsigned long long v = std::strtoull(text, &end, 10);
  if (*end != '\0') {
    std::fprintf(stderr,
                 "edpbench GPU simulator: EDPBENCH_SIM_SEED='%s' is not a whole number (the "
                 "seed of the block schedule)\n",
                 text);
    std::exit(2);
  }
  return v;
}
std::uint64_t g_seed = initial_seed();
std::uint64_t g_grids = 0;  // grids run since the seed was set

[[noreturn]] void report(const char* format, ...) {
  std::fflush(stdout);
  std::fprintf(stderr, "edpbench GPU simulator: ");
  if (t_grid != nullptr) std::fprintf(stderr, "kernel %s: ", t_grid->kernel->c_str());
  va_list args;
  va_start(args, format);
  std::vfprintf(stderr, format, args);
  va_end(args);
  std::fprintf(stderr, "\n");
  std::abort();
}

std::string where(const SimThread& t) {
  char text[128];
  std::snprintf(text, sizeof text, "block (%u,%u,%u) thread (%u,%u,%u) [warp %d lane %d]",
                t.index.block_idx.x, t.index.block_idx.y, t.index.block_idx.z, t.index.thread_idx.x,
                t.index.thread_idx.y, t.index.thread_idx.z, t.linear / DeviceLimits::kWarpSize,
                t.linear % DeviceLimits::kWarpSize);
  return text;
}

void thread_main(void* arg) {
  SimThread* self = static_cast<SimThread*>(arg);
  (*t_grid->body)();
  self->state = State::kDone;
}

bool is_shuffle(WarpOp op) {
  return op == WarpOp::kShflIdx || op == WarpOp::kShflUp || op == WarpOp::kShflDown ||
         op == WarpOp::kShflXor;
}

// Completes the collective lane `poster` of warp `warp` joined, if every lane
// of its mask has joined too.
void try_complete(Block& b, const SimThread& poster) {
  const int warp = poster.linear / DeviceLimits::kWarpSize;
  const Request& r = poster.request;
  const int total = static_cast<int>(b.threads.size());
  for (int lane = 0; lane < DeviceLimits::kWarpSize; ++lane) {
    if (!((r.mask >> lane) & 1u)) continue;
    const int g = warp * DeviceLimits::kWarpSize + lane;
    if (g >= total) {
      report(
          "%s: %s with mask 0x%08x names lane %d, which does not exist (the block has %d "
          "threads): lanes are missing from the mask",
          where(poster).c_str(), warp_op_name(r.op), r.mask, lane, total);
    }
    const SimThread& t = b.threads[static_cast<std::size_t>(g)];
    if (t.state == State::kDone) {
      report(
          "%s: %s with mask 0x%08x waits for lane %d, which has exited: lanes are missing "
          "from the mask",
          where(poster).c_str(), warp_op_name(r.op), r.mask, lane);
    }
    if (t.state != State::kAtWarp) return;  // not there yet
    if (t.request.op != r.op || t.request.mask != r.mask || t.request.width != r.width) {
      report(
          "%s: %s with mask 0x%08x meets lane %d in %s with mask 0x%08x: every lane of a mask "
          "must execute the same intrinsic with the same mask",
          where(poster).c_str(), warp_op_name(r.op), r.mask, lane, warp_op_name(t.request.op),
          t.request.mask);
    }
  }
  // Every lane of the mask is here: compute each one's result.
  std::uint64_t ballot = 0;
  for (int lane = 0; lane < DeviceLimits::kWarpSize; ++lane) {
    if (((r.mask >> lane) & 1u) &&
        b.threads[static_cast<std::size_t>(warp * DeviceLimits::kWarpSize + lane)].request.value) {
      ballot |= std::uint64_t{1} << lane;
    }
  }
  for (int lane = 0; lane < DeviceLimits::kWarpSize; ++lane) {
    if (!((r.mask >> lane) & 1u)) continue;
    SimThread& t = b.threads[static_cast<std::size_t>(warp * DeviceLimits::kWarpSize + lane)];
    const int width = t.request.width;
    const int segment = lane & ~(width - 1);
    const int arg = t.request.arg;
    int source = lane;
    switch (r.op) {
      case WarpOp::kShflIdx:
        source = segment + (((arg % width) + width) % width);
        break;
      case WarpOp::kShflUp:
        source = lane - arg >= segment ? lane - arg : lane;
        break;
      case WarpOp::kShflDown:
        source = lane + arg < segment + width ? lane + arg : lane;
        break;
      case WarpOp::kShflXor:
        source = (lane ^ arg) < segment + width ? (lane ^ arg) : lane;
        break;
      default:
        break;
    }
    if (is_shuffle(r.op)) {
      if (source < 0 || source >= DeviceLimits::kWarpSize || !((r.mask >> source) & 1u)) {
        report(
            "%s: %s with mask 0x%08x reads lane %d, which is not in the mask (its value is "
            "undefined)",
            where(t).c_str(), warp_op_name(r.op), r.mask, source);
      }
      t.result = b.threads[static_cast<std::size_t>(warp * DeviceLimits::kWarpSize + source)]
                     .request.value;
    } else if (r.op == WarpOp::kBallot) {
      t.result = ballot;
    } else if (r.op == WarpOp::kAny) {
      t.result = ballot != 0;
    } else {
      t.result = ballot == (r.mask & 0xffffffffu);
    }
  }
  for (int lane = 0; lane < DeviceLimits::kWarpSize; ++lane) {
    if ((r.mask >> lane) & 1u) {
      b.threads[static_cast<std::size_t>(warp * DeviceLimits::kWarpSize + lane)].state =
          State::kRunnable;
    }
  }
}

[[noreturn]] void report_stall(const Block& b) {
  int done = 0, barrier = 0, warp = 0;
  const SimThread* at_warp = nullptr;
  const SimThread* exited = nullptr;
  for (const SimThread& t : b.threads) {
    if (t.state == State::kDone) ++done, exited = exited ? exited : &t;
    if (t.state == State::kAtBarrier) ++barrier;
    if (t.state == State::kAtWarp) ++warp, at_warp = at_warp ? at_warp : &t;
  }
  const int total = static_cast<int>(b.threads.size());
  if (barrier > 0) {
    report(
        "block (%u,%u,%u): __syncthreads() (barrier %d of the block) reached by %d of %d "
        "threads; %d exited without it (first: %s), %d wait in a warp collective: a barrier "
        "every thread of the block must reach",
        b.threads[0].index.block_idx.x, b.threads[0].index.block_idx.y,
        b.threads[0].index.block_idx.z, b.barriers_passed + 1, barrier, total, done,
        exited ? where(*exited).c_str() : "none", warp);
  }
  report(
      "%s waits in %s with mask 0x%08x, and the lanes it names never join (%d threads exited, "
      "%d wait elsewhere)",
      at_warp ? where(*at_warp).c_str() : "?", at_warp ? warp_op_name(at_warp->request.op) : "?",
      at_warp ? at_warp->request.mask : 0u, done, warp);
}

// Puts `b`'s shared memory into the section, saving the previous block's.
void load_shared(Grid& g, Block& b) {
  if (g.loaded == &b) return;
  const std::size_t bytes = g.shared.bytes();
  if (bytes > 0) {
    if (g.loaded != nullptr) std::memcpy(g.loaded->shared.data(), g.shared.begin, bytes);
    std::memcpy(g.shared.begin, b.shared.data(), bytes);
  }
  g.loaded = &b;
}

// Makes `b` the block of grid position `linear` and arms its threads on the
// fibers [first_fiber, first_fiber + threads).
void start_block(Block& b, std::uint64_t linear, dim3 block_dim, dim3 grid_dim,
                 std::size_t first_fiber, std::size_t shared_bytes) {
  const std::size_t count = static_cast<std::size_t>(block_dim.x) * block_dim.y * block_dim.z;
  const uint3 block_idx{static_cast<unsigned>(linear % grid_dim.x),
                        static_cast<unsigned>(linear / grid_dim.x % grid_dim.y),
                        static_cast<unsigned>(linear / grid_dim.x / grid_dim.y)};
  b.threads.assign(count, SimThread{});
  b.shared.assign(shared_bytes, 0xff);  // NaN for float and double, -1 for integers
  b.linear = linear;
  b.at_barrier = 0;
  b.barriers_passed = 0;
  b.done = 0;
  b.cursor = 0;
  std::size_t i = 0;
  for (unsigned z = 0; z < block_dim.z; ++z) {
    for (unsigned y = 0; y < block_dim.y; ++y) {
      for (unsigned x = 0; x < block_dim.x; ++x, ++i) {
        SimThread& t = b.threads[i];
        t.index = ThreadIndex{uint3{x, y, z}, block_idx, block_dim, grid_dim};
        t.linear = static_cast<int>(i);
        t.fiber = fibers()[first_fiber + i].get();
        t.fiber->start(&thread_main, &t);
      }
    }
  }
}

// How likely the runner leaves a block after a thread stops at each kind of
// point: a completed barrier (the natural place, half the time), a warp
// collective or an atomic, a thread's end.
constexpr double kSwitchAtBarrier = 0.5;
constexpr double kSwitchAtYield = 1.0 / 32;
constexpr double kSwitchAtExit = 1.0 / 64;

// Runs `b`'s threads until the block ends or the generator switches it out.
// Returns true when the block has finished.
bool run_segment(Block& b, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> draw(0.0, 1.0);
  const std::size_t count = b.threads.size();
  for (;;) {
    std::size_t k = 0;
    for (; k < count; ++k) {
      if (b.threads[(b.cursor + k) % count].state == State::kRunnable) break;
    }
    if (k == count) report_stall(b);  // blocks never wait for each other: stuck for good
    const std::size_t index = (b.cursor + k) % count;
    b.cursor = index + 1;
    SimThread& t = b.threads[index];
    t_thread = &t;
    t.fiber->resume();
    t_thread = nullptr;
    double p_switch = kSwitchAtYield;
    if (t.state == State::kDone) {
      if (++b.done == static_cast<int>(count)) return true;
      p_switch = kSwitchAtExit;
    } else if (t.state == State::kAtWarp) {
      try_complete(b, t);
    } else if (t.state == State::kAtBarrier) {
      if (b.at_barrier != static_cast<int>(count)) continue;
      for (SimThread& u : b.threads) u.state = State::kRunnable;
      b.at_barrier = 0;
      ++b.barriers_passed;
      b.cursor = 0;
      p_switch = kSwitchAtBarrier;
    }
    if (draw(rng) < p_switch) return false;
  }
}

}  // namespace

int resident_blocks(unsigned threads_per_block) {
  const unsigned per_sm_by_threads =
      threads_per_block == 0 ? 1 : DeviceLimits::kMaxThreadsPerSm / threads_per_block;
  int per_sm = static_cast<int>(per_sm_by_threads);
  if (per_sm > DeviceLimits::kMaxBlocksPerSm) per_sm = DeviceLimits::kMaxBlocksPerSm;
  if (per_sm < 1) per_sm = 1;
  return per_sm * DeviceLimits::kSmCount;
}

int resident_blocks_for(unsigned threads_per_block) { return resident_blocks(threads_per_block); }

void set_schedule_seed(std::uint64_t seed) {
  Guard lock(api_lock());
  g_seed = seed;
  g_grids = 0;
}

std::uint64_t schedule_seed() { return g_seed; }

const char* warp_op_name(WarpOp op) {
  switch (op) {
    case WarpOp::kShflIdx:
      return "__shfl_sync";
    case WarpOp::kShflUp:
      return "__shfl_up_sync";
    case WarpOp::kShflDown:
      return "__shfl_down_sync";
    case WarpOp::kShflXor:
      return "__shfl_xor_sync";
    case WarpOp::kBallot:
      return "__ballot_sync";
    case WarpOp::kAny:
      return "__any_sync";
    case WarpOp::kAll:
      return "__all_sync";
  }
  return "?";
}

const ThreadIndex& current_thread() {
  if (t_thread == nullptr) report("threadIdx/blockIdx/blockDim/gridDim read outside a kernel");
  return t_thread->index;
}

void syncthreads() {
  if (t_thread == nullptr) report("__syncthreads() called outside a kernel");
  t_thread->state = State::kAtBarrier;
  ++t_block->at_barrier;
  Fiber::yield();
}

std::uint64_t warp_collective(WarpOp op, unsigned mask, std::uint64_t value, int arg, int width) {
  if (t_thread == nullptr) report("%s called outside a kernel", warp_op_name(op));
  SimThread& self = *t_thread;
  const int lane = self.linear % DeviceLimits::kWarpSize;
  if (width < 1 || width > DeviceLimits::kWarpSize || (width & (width - 1)) != 0) {
    report("%s: %s with width %d (a power of two up to 32)", where(self).c_str(), warp_op_name(op),
           width);
  }
  if (!((mask >> lane) & 1u)) {
    report(
        "%s: %s with mask 0x%08x, which does not include the calling lane %d: lanes are "
        "missing from the mask",
        where(self).c_str(), warp_op_name(op), mask, lane);
  }
  self.request = Request{op, mask, value, arg, width};
  self.state = State::kAtWarp;
  Fiber::yield();
  return self.result;
}

std::string launch_problem(dim3 grid, dim3 block, std::size_t static_shared,
                           std::size_t dynamic_shared) {
  const unsigned b[3] = {block.x, block.y, block.z};
  const unsigned g[3] = {grid.x, grid.y, grid.z};
  const char* axis = "xyz";
  char text[256];
  for (int i = 0; i < 3; ++i) {
    if (b[i] == 0 || b[i] > DeviceLimits::kMaxBlockDim[i]) {
      std::snprintf(text, sizeof text, "blockDim.%c = %u (1..%u)", axis[i], b[i],
                    DeviceLimits::kMaxBlockDim[i]);
      return text;
    }
    if (g[i] == 0 || g[i] > DeviceLimits::kMaxGridDim[i]) {
      std::snprintf(text, sizeof text, "gridDim.%c = %u (1..%u)", axis[i], g[i],
                    DeviceLimits::kMaxGridDim[i]);
      return text;
    }
  }
  const unsigned long long threads = 1ull * block.x * block.y * block.z;
  if (threads > static_cast<unsigned long long>(DeviceLimits::kMaxThreadsPerBlock)) {
    std::snprintf(text, sizeof text, "%llu threads per block (at most %d)", threads,
                  DeviceLimits::kMaxThreadsPerBlock);
    return text;
  }
  if (dynamic_shared > DeviceLimits::kSharedBytesPerBlock - static_shared) {
    std::snprintf(text, sizeof text,
                  "%zu bytes of dynamic shared memory beside %zu bytes of __shared__ variables "
                  "(at most %zu per block)",
                  dynamic_shared, static_shared, DeviceLimits::kSharedBytesPerBlock);
    return text;
  }
  return std::string();
}

void atomic_point(const void* address, std::size_t bytes) {
  note_write(address, bytes, true);
  if (t_thread == nullptr) return;  // host code: nothing to schedule
  Fiber::yield();                   // still runnable: a point where the runner may switch
}

void run_grid(const std::string& kernel, dim3 grid, dim3 block,
              const std::function<void()>& thread_body, SharedRegion shared) {
  const std::uint64_t launch_index = g_grids++;
  const std::uint64_t total = std::uint64_t{grid.x} * grid.y * grid.z;
  const unsigned threads = block.x * block.y * block.z;
  std::uint64_t cap = static_cast<std::uint64_t>(resident_blocks(threads));
  if (cap > total) cap = total;
  const auto resident = static_cast<std::size_t>(cap);
  auto& pool = fibers();
  while (pool.size() < resident * threads) pool.push_back(std::make_unique<Fiber>());

  Grid g;
  g.kernel = &kernel;
  g.body = &thread_body;
  g.shared = shared;
  t_grid = &g;
  // Grid i since the seed was set draws from (seed, i); the golden-ratio
  // multiplier (splitmix64's increment) keeps neighbouring seeds apart.
  std::mt19937_64 rng(g_seed * 0x9e3779b97f4a7c15ull + launch_index);
  begin_write_tracking(kernel, grid, g_seed, launch_index);

  std::vector<std::unique_ptr<Block>> slots(resident);
  std::vector<std::size_t> live;  // indices of occupied slots
  std::uint64_t next = 0;
  for (std::size_t s = 0; s < resident; ++s) {
    slots[s] = std::make_unique<Block>();
    start_block(*slots[s], next++, block, grid, s * threads, shared.bytes());
    live.push_back(s);
  }
  while (!live.empty()) {
    const std::size_t pick = static_cast<std::size_t>(rng() % live.size());
    const std::size_t s = live[pick];
    Block& b = *slots[s];
    load_shared(g, b);
    t_block = &b;
    set_writing_block(b.linear);
    const bool finished = run_segment(b, rng);
    t_block = nullptr;
    if (!finished) continue;
    if (g.loaded == &b) g.loaded = nullptr;  // its shared memory dies with it
    if (next < total) {
      start_block(b, next++, block, grid, s * threads, shared.bytes());
    } else {
      live.erase(live.begin() + static_cast<std::ptrdiff_t>(pick));
    }
  }
  end_write_tracking();
  t_grid = nullptr;
}

}  // namespace edp_sim
