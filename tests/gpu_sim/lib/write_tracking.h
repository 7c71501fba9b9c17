// GPU simulator: the race rule for global memory. Blocks of one launch cannot
// synchronise with each other (CUDA C++ Programming Guide, "Thread
// Hierarchy": blocks "execute independently"), so two blocks that store to
// one address of device memory in the same launch race unless both use an
// atomic ("Atomic Functions": the read-modify-write is "guaranteed to be
// performed without interference from other threads"). On a GPU the loser's
// update is lost, silently; here the second store aborts with a report.
//
// The stores are seen through compiler instrumentation: the kernel sources
// of a simulator build are compiled with GCC's -fsanitize=thread, whose
// calls (__tsan_write4 and the like) land in write_tracking.cpp instead of
// the ThreadSanitizer runtime, which is never linked. Every store of kernel
// code to a live allocation is noted, per 4-byte word, with the block that
// made it and whether it was atomic (atomicAdd). Stores of one block to a
// word it wrote before are its own business (ordered or not: intra-block
// races are not judged); a plain store to a word another block stored to in
// this launch, or an atomic against another block's plain store, is the race.
// Reads are not tracked. Under AddressSanitizer the kernels cannot carry
// ThreadSanitizer's instrumentation as well, and the rule is off.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "vector_types.h"

namespace edp_sim {

// Starts noting the stores of the launch about to run on this OS thread.
void begin_write_tracking(const std::string& kernel, dim3 grid, std::uint64_t seed,
                          std::uint64_t launch_index);
// The block (linear index in the grid) whose threads run now.
void set_writing_block(std::uint64_t linear);
void end_write_tracking();
// A store of `bytes` at `address` by the running block; a no-op outside a
// launch and for memory that is not a live device allocation.
void note_write(const void* address, std::size_t bytes, bool atomic);
// Whether this build's kernels carry the instrumentation (the rule is on).
bool write_tracking_instrumented();

}  // namespace edp_sim
