// GPU simulator: the block runner (see simt_block.h). Rules, after the CUDA
// C++ Programming Guide:
//  - "Synchronization Functions": __syncthreads() waits until every thread of
//    the block has reached it; in conditional code the condition must be the
//    same for the whole block. A barrier some thread never reaches (it exited,
//    or waits elsewhere) aborts.
//  - "Warp Shuffle Functions" / "Warp Vote Functions": each calling lane must
//    be in `mask`, every lane in `mask` must execute the same intrinsic with
//    the same mask, and width is a power of two <= warpSize. A lane reading
//    from an inactive lane gets an undefined value: here it aborts.
#include "simt_block.h"

#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <thread>
#include <vector>

#include "device_limits.h"
#include "edp_sim/device.h"
#include "fiber.h"

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
};

struct Block {
  const std::string* kernel = nullptr;
  const std::function<void()>* body = nullptr;
  std::vector<SimThread> threads;
  int at_barrier = 0;
  int barriers_passed = 0;
};

thread_local Block* t_block = nullptr;
thread_local SimThread* t_thread = nullptr;
// Fiber stacks, reused by every block (one block runs at a time: the API lock).
std::vector<std::unique_ptr<Fiber>>& fibers() {
  // Never destroyed: device state outlives every static destructor (and
  // LeakSanitizer, which runs after them, still sees it reachable).
  static auto* f = new std::vector<std::unique_ptr<Fiber>>;
  return *f;
}

[[noreturn]] void report(const char* format, ...) {
  std::fflush(stdout);
  std::fprintf(stderr, "edpbench GPU simulator: ");
  if (t_block != nullptr) std::fprintf(stderr, "kernel %s: ", t_block->kernel->c_str());
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
  (*t_block->body)();
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

void run_block(Block& b, uint3 block_idx, dim3 block_dim, dim3 grid_dim) {
  const std::size_t count = static_cast<std::size_t>(block_dim.x) * block_dim.y * block_dim.z;
  b.threads.assign(count, SimThread{});
  b.at_barrier = 0;
  b.barriers_passed = 0;
  auto& t_fibers = fibers();
  while (t_fibers.size() < count) t_fibers.push_back(std::make_unique<Fiber>());
  std::size_t i = 0;
  for (unsigned z = 0; z < block_dim.z; ++z) {
    for (unsigned y = 0; y < block_dim.y; ++y) {
      for (unsigned x = 0; x < block_dim.x; ++x, ++i) {
        SimThread& t = b.threads[i];
        t.index = ThreadIndex{uint3{x, y, z}, block_idx, block_dim, grid_dim};
        t.linear = static_cast<int>(i);
        t_fibers[i]->start(&thread_main, &t);
      }
    }
  }
  std::size_t done = 0;
  while (done < count) {
    bool progress = false;
    for (std::size_t k = 0; k < count; ++k) {
      SimThread& t = b.threads[k];
      if (t.state != State::kRunnable) continue;
      progress = true;
      t_thread = &t;
      fibers()[k]->resume();
      t_thread = nullptr;
      if (t.state == State::kDone) {
        ++done;
      } else if (t.state == State::kAtWarp) {
        try_complete(b, t);
      } else if (t.state == State::kAtBarrier && b.at_barrier == static_cast<int>(count)) {
        for (SimThread& u : b.threads) u.state = State::kRunnable;
        b.at_barrier = 0;
        ++b.barriers_passed;
      }
    }
    if (!progress) report_stall(b);
  }
}

}  // namespace

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

void check_launch_limits(const char* kernel, dim3 grid, dim3 block, std::size_t shared_bytes) {
  const unsigned b[3] = {block.x, block.y, block.z};
  const unsigned g[3] = {grid.x, grid.y, grid.z};
  const char* axis = "xyz";
  auto fail = [kernel](const char* what) {
    std::fflush(stdout);
    std::fprintf(stderr, "edpbench GPU simulator: kernel %s: launch refused: %s\n", kernel, what);
    std::abort();
  };
  char text[256];
  for (int i = 0; i < 3; ++i) {
    if (b[i] == 0 || b[i] > DeviceLimits::kMaxBlockDim[i]) {
      std::snprintf(text, sizeof text, "blockDim.%c = %u (1..%u)", axis[i], b[i],
                    DeviceLimits::kMaxBlockDim[i]);
      fail(text);
    }
    if (g[i] == 0 || g[i] > DeviceLimits::kMaxGridDim[i]) {
      std::snprintf(text, sizeof text, "gridDim.%c = %u (1..%u)", axis[i], g[i],
                    DeviceLimits::kMaxGridDim[i]);
      fail(text);
    }
  }
  const unsigned long long threads = 1ull * block.x * block.y * block.z;
  if (threads > static_cast<unsigned long long>(DeviceLimits::kMaxThreadsPerBlock)) {
    std::snprintf(text, sizeof text, "%llu threads per block (at most %d)", threads,
                  DeviceLimits::kMaxThreadsPerBlock);
    fail(text);
  }
  if (shared_bytes > DeviceLimits::kSharedBytesPerBlock) {
    std::snprintf(text, sizeof text, "%zu bytes of dynamic shared memory (at most %zu per block)",
                  shared_bytes, DeviceLimits::kSharedBytesPerBlock);
    fail(text);
  }
}

void run_grid(const std::string& kernel, dim3 grid, dim3 block,
              const std::function<void()>& thread_body) {
  Block b;
  b.kernel = &kernel;
  b.body = &thread_body;
  for (unsigned z = 0; z < grid.z; ++z) {
    for (unsigned y = 0; y < grid.y; ++y) {
      for (unsigned x = 0; x < grid.x; ++x) {
        // Each block on an OS thread of its own: __shared__ variables are
        // thread_local, so every block starts with its own (zeroed) shared
        // memory and nothing a block wrote survives into the next one, as on
        // the GPU where a block never sees another's shared memory.
        std::thread runner([&b, x, y, z, block, grid] {
          t_block = &b;
          run_block(b, uint3{x, y, z}, block, grid);
          t_block = nullptr;
        });
        runner.join();
      }
    }
  }
}

}  // namespace edp_sim
