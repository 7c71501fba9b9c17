// GPU simulator: fibers (see fiber.h).
#include "fiber.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

#if defined(__SANITIZE_ADDRESS__)
#define EDP_SIM_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define EDP_SIM_ASAN 1
#endif
#endif
#ifdef EDP_SIM_ASAN
#include <sanitizer/common_interface_defs.h>
#endif

namespace edp_sim {

namespace {

#ifdef EDP_SIM_ASAN
constexpr std::size_t kStackBytes = 512 * 1024;  // ASan frames are larger
#else
constexpr std::size_t kStackBytes = 128 * 1024;
#endif

thread_local ucontext_t t_scheduler;
thread_local Fiber* t_running = nullptr;
thread_local Fiber* t_starting = nullptr;
thread_local const void* t_scheduler_bottom = nullptr;
thread_local std::size_t t_scheduler_size = 0;

void start_switch(void** fake_stack, const void* bottom, std::size_t size) {
#ifdef EDP_SIM_ASAN
  __sanitizer_start_switch_fiber(fake_stack, bottom, size);
#else
  (void)fake_stack, (void)bottom, (void)size;
#endif
}

void finish_switch(void* fake_stack, const void** bottom, std::size_t* size) {
#ifdef EDP_SIM_ASAN
  __sanitizer_finish_switch_fiber(fake_stack, bottom, size);
#else
  (void)fake_stack, (void)bottom, (void)size;
#endif
}

[[noreturn]] void die(const char* what) {
  std::fprintf(stderr, "edpbench GPU simulator: %s\n", what);
  std::abort();
}

}  // namespace

Fiber::Fiber() {
  const std::size_t page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  void* base = ::mmap(nullptr, kStackBytes + page, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (base == MAP_FAILED) die("cannot map a fiber stack");
  if (::mprotect(base, page, PROT_NONE) != 0) die("cannot protect a fiber stack's guard page");
  stack_ = static_cast<char*>(base) + page;
  stack_bytes_ = kStackBytes;
}

Fiber::~Fiber() {
  const std::size_t page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  ::munmap(static_cast<char*>(stack_) - page, stack_bytes_ + page);
}

void Fiber::start(void (*entry)(void*), void* arg) {
  if (::getcontext(&context_) != 0) die("getcontext failed");
  context_.uc_stack.ss_sp = stack_;
  context_.uc_stack.ss_size = stack_bytes_;
  context_.uc_link = nullptr;
  ::makecontext(&context_, &Fiber::trampoline, 0);
  entry_ = entry;
  arg_ = arg;
  finished_ = false;
  asan_fake_stack_ = nullptr;
}

void Fiber::trampoline() {
  Fiber* self = t_starting;
  finish_switch(nullptr, &t_scheduler_bottom, &t_scheduler_size);
  self->entry_(self->arg_);
  self->finished_ = true;
  // The fiber's stack is dead from here on: no fake stack to keep.
  start_switch(nullptr, t_scheduler_bottom, t_scheduler_size);
  ::setcontext(&t_scheduler);
  die("setcontext returned");
}

void Fiber::resume() {
  if (finished_) die("resume of a finished fiber");
  if (t_running != nullptr) die("a fiber resumed another fiber");
  t_running = this;
  t_starting = this;
  void* scheduler_fake = nullptr;
  start_switch(&scheduler_fake, stack_, stack_bytes_);
  if (::swapcontext(&t_scheduler, &context_) != 0) die("swapcontext failed");
  finish_switch(scheduler_fake, nullptr, nullptr);
  t_running = nullptr;
}

void Fiber::yield() {
  Fiber* self = t_running;
  if (self == nullptr) die("yield outside a fiber");
  start_switch(&self->asan_fake_stack_, t_scheduler_bottom, t_scheduler_size);
  if (::swapcontext(&self->context_, &t_scheduler) != 0) die("swapcontext failed");
  finish_switch(self->asan_fake_stack_, &t_scheduler_bottom, &t_scheduler_size);
}

}  // namespace edp_sim
