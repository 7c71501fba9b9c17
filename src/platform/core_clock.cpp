// Dependent-addition clock measurement (see core_clock.h).
#include "platform/core_clock.h"

#include <time.h>
#include <algorithm>

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

// The calling thread's CPU time: it stops while the thread is preempted, so
// a block that shares its core with another runnable thread is not read as
// a slow clock (wall time read 2.1-2.4 GHz for a 3.4 GHz core during a
// build). Time the hypervisor steals from the whole guest still counts;
// taking the fastest of several short blocks covers that.
double thread_cpu_s() {
  timespec ts{};
  ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

}  // namespace

double measure_core_clock_hz(double block_s, int blocks) {
  volatile uint64_t sink = 0;
  // Size a step from a short trial (also the warm-up that lets the core
  // leave a low-power state): about 100 us of additions.
  int64_t iterations = 1 << 8;
  for (;;) {
    const double t0 = thread_cpu_s();
    sink = add_chain(sink, iterations);
    if (thread_cpu_s() - t0 >= 1e-4 || iterations > (int64_t{1} << 40)) break;
    iterations *= 2;
  }
  double best = 0;
  for (int b = 0; b < std::max(1, blocks); ++b) {
    double s = 0;
    int64_t done = 0;
    const double t0 = thread_cpu_s();
    do {
      sink = add_chain(sink, iterations);
      done += iterations;
      s = thread_cpu_s() - t0;
    } while (s < block_s);
    best = std::max(best, static_cast<double>(done) * kAddsPerIteration / s);
  }
  return best;
}

}  // namespace edp::platform
