#include "bench/engine/signals.h"

#include <errno.h>
#include <pthread.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <ctime>
#include <initializer_list>
#include <stdexcept>
#include <vector>

#include "common/safe_file.h"

namespace edp::bench {

namespace {
volatile std::sig_atomic_t g_signal = 0;
std::atomic<bool> g_synchronous{false};
// SIGHUP was ignored when the handlers were installed (nohup): it stays so.
volatile std::sig_atomic_t g_hup_ignored = 0;
// The thread of the SynchronousStops alive (0: none), for on_child.
std::atomic<long> g_waiter_tid{0};
struct sigaction g_old_sigchld {};

sigset_t stop_set() {
  sigset_t s;
  sigemptyset(&s);
  for (int sig : {SIGINT, SIGTERM, SIGHUP})
    if (sig != SIGHUP || !g_hup_ignored) sigaddset(&s, sig);
  return s;
}

// SIGCHLD while a SynchronousStops is alive. The waiter blocks it and takes
// it with sigtimedwait, but a process-directed SIGCHLD that arrives while
// the waiter is not inside sigtimedwait is handed by the kernel to a thread
// that does not block it (OpenBLAS's pool, started before main), where the
// default action discarded it: the command's end was then seen only at the
// next poll, up to 100 ms later, inside the energy window. Sent on to the
// waiter thread (tgkill is async-signal-safe), it stays pending there.
extern "C" void on_child(int) {
  const int saved = errno;
  const long waiter = g_waiter_tid.load();
  if (waiter > 0 && syscall(SYS_gettid) != waiter)
    syscall(SYS_tgkill, static_cast<long>(getpid()), waiter, static_cast<long>(SIGCHLD));
  errno = saved;
}
// The other signals whose default action ends the process and that come
// from outside (kill, a timer, a resource limit): SIGUSR1 at an operating
// point exited 138 with the clocks left changed. Taken like SIGTERM when
// they were at their default; one that was ignored or had a handler keeps
// it. Faults (SIGSEGV, SIGBUS, ...) are not: the next start repairs those.
// Filled once by install_stop_handlers; read by on_stop.
constexpr int kMaxOther = 64;
int g_other[kMaxOther];
volatile std::sig_atomic_t g_others = 0;

extern "C" void on_stop(int sig) {
  if (g_signal == 0) g_signal = sig;
  if (sig == SIGPIPE) return;  // stays caught (see signals.h)
  // A second SIGINT/SIGTERM/SIGHUP (or any other stop) takes the default
  // action: the way out of a hang (a GPU that never finishes a synchronize)
  // is always one more Ctrl-C.
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  sigemptyset(&dfl.sa_mask);
  for (int s : {SIGINT, SIGTERM, SIGHUP})
    if (s != SIGHUP || !g_hup_ignored) sigaction(s, &dfl, nullptr);
  for (int i = 0; i < g_others; ++i) sigaction(g_other[i], &dfl, nullptr);
}

// The terminating signals besides SIGINT, SIGTERM, SIGHUP and SIGPIPE
// (signal(7): action Term or Core, sent by another process).
std::vector<int> other_terminating_signals() {
  std::vector<int> out{SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM,
                       SIGPROF, SIGXCPU, SIGXFSZ, SIGIO,   SIGPWR};
#ifdef SIGSTKFLT
  out.push_back(SIGSTKFLT);
#endif
  for (int s = SIGRTMIN; s <= SIGRTMAX; ++s) out.push_back(s);
  return out;
}
}  // namespace

void install_stop_handlers() {
  static bool installed = false;
  if (installed) return;
  installed = true;
  // An ignored SIGHUP is a request (nohup: keep running when the terminal
  // goes away) that a handler would silently override, and that a command
  // measure runs would lose too (a handler is reset to the default at exec,
  // SIG_IGN is kept).
  struct sigaction hup {};
  g_hup_ignored = sigaction(SIGHUP, nullptr, &hup) == 0 && !(hup.sa_flags & SA_SIGINFO) &&
                  hup.sa_handler == SIG_IGN;
  struct sigaction sa {};
  sa.sa_handler = on_stop;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0;  // no SA_RESTART: a sleeping wait returns early
  for (int s : {SIGINT, SIGTERM, SIGHUP, SIGPIPE})
    if (s != SIGHUP || !g_hup_ignored) sigaction(s, &sa, nullptr);
  int n = 0;
  for (int s : other_terminating_signals()) {
    struct sigaction old {};
    if (n == kMaxOther || sigaction(s, nullptr, &old) != 0 || (old.sa_flags & SA_SIGINFO) ||
        old.sa_handler != SIG_DFL)
      continue;
    g_other[n++] = s;
    sigaction(s, &sa, nullptr);
  }
  g_others = n;
  // A long read of an untrusted file (a config on a pipe that never ends)
  // stops at the signal, as the sweep's own waits do.
  set_read_interrupt_check([] { throw_if_stop_requested(); });
}

sigset_t stop_signals() { return stop_set(); }

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
  g_waiter_tid = syscall(SYS_gettid);
  struct sigaction chld {};
  chld.sa_handler = on_child;
  sigemptyset(&chld.sa_mask);
  chld.sa_flags = SA_RESTART | SA_NOCLDSTOP;
  // Also replaces an inherited SIG_IGN, under which the kernel reaps the
  // children itself and sends no SIGCHLD: waitpid failed with ECHILD and a
  // failing command read as exit status 0.
  sigaction(SIGCHLD, &chld, &g_old_sigchld);
  sigset_t s = stop_set();
  sigaddset(&s, SIGCHLD);
  sigaddset(&s, SIGTTOU);
  pthread_sigmask(SIG_BLOCK, &s, &old_);
}

SynchronousStops::~SynchronousStops() {
  g_waiter_tid = 0;
  pthread_sigmask(SIG_SETMASK, &old_, nullptr);
  sigaction(SIGCHLD, &g_old_sigchld, nullptr);
  g_synchronous = false;
}

bool SynchronousStops::active() { return g_synchronous; }

}  // namespace edp::bench
