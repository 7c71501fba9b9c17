// bench/engine/signals.h: SynchronousStops takes SIGCHLD synchronously even when a
// thread started before it (a library's pool, with the old mask) is the
// one the kernel hands the signal to.
#include "bench/engine/signals.h"

#include <signal.h>
#include <time.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <thread>

namespace {

// A thread with every signal unblocked, as OpenBLAS's pool thread is in
// edpbench (it is started when the library loads, before main).
struct LibraryThread {
  std::atomic<bool> stop{false};
  std::thread t;
  LibraryThread() {
    t = std::thread([this] {
      sigset_t all;
      sigfillset(&all);
      pthread_sigmask(SIG_UNBLOCK, &all, nullptr);
      while (!stop) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    });
  }
  ~LibraryThread() {
    stop = true;
    t.join();
  }
};

}  // namespace

TEST_CASE("signals: a SIGCHLD handed to a library's thread still reaches the synchronous waiter",
          "[bench][signals]") {
  const edp::bench::SynchronousStops stops;
  LibraryThread lib;
  std::this_thread::sleep_for(std::chrono::milliseconds(20));  // its mask is set
  // Process-directed, while this thread is not in sigtimedwait (it blocks
  // SIGCHLD): the kernel gives it to the thread that does not block it,
  // where the default action discarded it, and a command's wait saw its end
  // only at the next 100 ms poll.
  REQUIRE(::kill(::getpid(), SIGCHLD) == 0);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  sigset_t s;
  sigemptyset(&s);
  sigaddset(&s, SIGCHLD);
  const timespec zero{};
  CHECK(sigtimedwait(&s, nullptr, &zero) == SIGCHLD);
}
