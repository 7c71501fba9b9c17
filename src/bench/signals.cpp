#include "bench/signals.h"

#include <pthread.h>

#include <atomic>
#include <csignal>
#include <ctime>
#include <initializer_list>
#include <stdexcept>

namespace edp::bench {

namespace {
volatile std::sig_atomic_t g_signal = 0;
std::atomic<bool> g_synchronous{false};

sigset_t stop_set() {
  sigset_t s;
  sigemptyset(&s);
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) sigaddset(&s, sig);
  return s;
}

extern "C" void on_stop(int sig) {
  if (g_signal == 0) g_signal = sig;
  if (sig == SIGPIPE) return;  // stays caught (see signals.h)
  // A second SIGINT/SIGTERM/SIGHUP takes the default action: the way out of
  // a hang (a GPU that never finishes a synchronize) is always one more Ctrl-C.
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  sigemptyset(&dfl.sa_mask);
  for (int s : {SIGINT, SIGTERM, SIGHUP}) sigaction(s, &dfl, nullptr);
}
}  // namespace

void install_stop_handlers() {
  static bool installed = false;
  if (installed) return;
  installed = true;
  struct sigaction sa {};
  sa.sa_handler = on_stop;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0;  // no SA_RESTART: a sleeping wait returns early
  for (int s : {SIGINT, SIGTERM, SIGHUP, SIGPIPE}) sigaction(s, &sa, nullptr);
}

int stop_signal() {
  if (g_signal == 0 && g_synchronous) {
    const sigset_t s = stop_set();
    const timespec zero{};
    const int sig = sigtimedwait(&s, nullptr, &zero);
    if (sig > 0) record_stop_signal(sig);
  }
  return g_signal;
}

void record_stop_signal(int sig) {
  if (g_signal == 0) g_signal = sig;
}

SynchronousStops::SynchronousStops() {
  if (g_synchronous.exchange(true)) throw std::logic_error("SynchronousStops: one at a time");
  // Threads that libraries started before us (OpenBLAS starts its pool when
  // it is loaded, before main) keep the old mask: a process-directed signal
  // can be delivered to one of them, and would kill us there with the
  // default action (or vanish, for a SIGINT ignored by a shell). The
  // handlers record it instead; the pollers see it in g_signal.
  install_stop_handlers();
  sigset_t s = stop_set();
  sigaddset(&s, SIGCHLD);
  sigaddset(&s, SIGTTOU);
  pthread_sigmask(SIG_BLOCK, &s, &old_);
}

SynchronousStops::~SynchronousStops() {
  pthread_sigmask(SIG_SETMASK, &old_, nullptr);
  g_synchronous = false;
}

bool SynchronousStops::active() { return g_synchronous; }

}  // namespace edp::bench
