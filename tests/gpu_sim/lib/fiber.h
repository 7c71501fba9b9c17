// GPU simulator: a fiber (ucontext, glibc) on its own mmap'd stack with a
// guard page, annotated for AddressSanitizer (sanitizer/common_interface_defs.h:
// __sanitizer_start_switch_fiber / __sanitizer_finish_switch_fiber) so ASan
// follows the stack switches. One simulated GPU thread is one fiber; the
// block runner resumes them one at a time on the launching OS thread.
#pragma once

#include <ucontext.h>

#include <cstddef>

namespace edp_sim {

class Fiber {
 public:
  Fiber();
  ~Fiber();
  Fiber(const Fiber&) = delete;
  Fiber& operator=(const Fiber&) = delete;

  // Arms the fiber: the next resume() runs entry(arg) from the start.
  void start(void (*entry)(void*), void* arg);
  // From the scheduler: runs the fiber until it yields or returns.
  void resume();
  bool finished() const { return finished_; }

  // From inside a fiber: back to the scheduler that resumed it.
  static void yield();

 private:
  static void trampoline();

  void* stack_ = nullptr;  // usable part, above the guard page
  std::size_t stack_bytes_ = 0;
  ucontext_t context_;
  void (*entry_)(void*) = nullptr;
  void* arg_ = nullptr;
  bool finished_ = true;
  void* asan_fake_stack_ = nullptr;
};

}  // namespace edp_sim
