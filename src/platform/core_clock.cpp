// Dependent-addition clock measurement (see core_clock.h).
#include "platform/core_clock.h"

#include <algorithm>
#include <chrono>
#include <cstdint>

namespace edp::platform {
namespace {

constexpr int kAddsPerIteration = 32;

// `iterations` x 32 dependent additions. The empty asm after each addition
// claims to read and modify x in a register, so the compiler can neither
// fold the additions into one nor reorder them, and emits no instruction
// for it: the loop is 32 ADDs in a chain plus a counter and a branch, which
// run beside the chain on any out-of-order core.
uint64_t add_chain(uint64_t x, int64_t iterations) {
#define EDP_ADD_STEP \
  x += 1;            \
  asm volatile("" : "+r"(x));
#define EDP_ADD_STEP8                                                                        \
  EDP_ADD_STEP EDP_ADD_STEP EDP_ADD_STEP EDP_ADD_STEP EDP_ADD_STEP EDP_ADD_STEP EDP_ADD_STEP \
      EDP_ADD_STEP
  for (int64_t i = 0; i < iterations; ++i) {
    EDP_ADD_STEP8 EDP_ADD_STEP8 EDP_ADD_STEP8 EDP_ADD_STEP8
  }
#undef EDP_ADD_STEP8
#undef EDP_ADD_STEP
  return x;
}

}  // namespace

double measure_core_clock_hz(double block_s, int blocks) {
  using clock = std::chrono::steady_clock;
  volatile uint64_t sink = 0;
  // Size a block from a short trial (also the warm-up that lets the core
  // leave a low-power state).
  int64_t iterations = 1 << 12;
  for (;;) {
    const auto t0 = clock::now();
    sink = add_chain(sink, iterations);
    const double s = std::chrono::duration<double>(clock::now() - t0).count();
    if (s >= block_s / 4 || iterations > (int64_t{1} << 40)) break;
    iterations *= 4;
  }
  double best = 0;
  for (int b = 0; b < std::max(1, blocks); ++b) {
    double s = 0;
    int64_t done = 0;
    const auto t0 = clock::now();
    do {
      sink = add_chain(sink, iterations);
      done += iterations;
      s = std::chrono::duration<double>(clock::now() - t0).count();
    } while (s < block_s);
    best = std::max(best, static_cast<double>(done) * kAddsPerIteration / s);
  }
  return best;
}

}  // namespace edp::platform
