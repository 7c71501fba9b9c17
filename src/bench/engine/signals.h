// Stop signals for long sweeps and restores: SIGINT, SIGTERM, SIGHUP (an ssh
// drop), SIGPIPE (`run ... 2>&1 | head`) and every other signal whose default
// action would end the process (SIGUSR1, SIGUSR2, SIGALRM, SIGQUIT, SIGXCPU,
// real-time signals, ...; those at their default) all take the same path. The
// handler only records the first signal; the runner polls stop_signal()
// between iterations, discards the configuration in progress, restores the
// board's clocks, saves what is complete and exits 128 + signal (130, 143,
// 129, 141). run and restore install the handlers first thing, before any
// file is read, anything is measured or any clock changed.
#pragma once

#include <signal.h>

#include "bench/engine/interrupted.h"

namespace edp::bench {

// Idempotent. A second SIGINT/SIGTERM/SIGHUP takes the default action (the
// way out of a hang is one more Ctrl-C); SIGPIPE stays caught, so that a
// write to the closed pipe while the clocks are being restored cannot kill
// the process halfway (the write fails with EPIPE instead).
// A SIGHUP that was ignored when they are installed (nohup) stays ignored.
void install_stop_handlers();
// The stop signals taken: SIGINT, SIGTERM, and SIGHUP unless it is ignored.
sigset_t stop_signals();
// 0 while no stop was requested, else the first signal's number. While a
// SynchronousStops is alive it also takes a pending stop signal (without
// waiting), so the engine's polls see it as they see a handler's.
int stop_signal();

// The other way to take stop signals, for `measure -- CMD`, whose runs wait
// for a child that must get them forwarded: SIGINT, SIGTERM and SIGHUP, with
// SIGCHLD and SIGTTOU, are blocked in the calling thread (and so in every
// thread it starts afterwards: make it before the sampler thread) and taken
// synchronously (sigwaitinfo / sigtimedwait), so that none can be lost
// between a check and a wait or land in the sampler thread. SIGTTOU is
// blocked so that taking the terminal back from the child's process group
// does not stop us. The handlers of install_stop_handlers are installed too,
// for threads a library started before the block (OpenBLAS's pool), which
// can still be handed a process-directed signal; and a SIGCHLD handler that
// sends such a thread's SIGCHLD on to this one (and replaces an inherited
// SIG_IGN, under which no SIGCHLD comes and the exit status is lost). One at
// a time; the mask and SIGCHLD's disposition are restored at destruction.
class SynchronousStops {
 public:
  SynchronousStops();
  ~SynchronousStops();
  SynchronousStops(const SynchronousStops&) = delete;
  SynchronousStops& operator=(const SynchronousStops&) = delete;
  // The mask from before: what a child process should start with.
  const sigset_t& old_mask() const { return old_; }
  // Whether one is alive (the command workload needs one).
  static bool active();

 private:
  sigset_t old_;
};

// Records `sig` as the stop signal when none is yet (a synchronous waiter
// that took it itself).
void record_stop_signal(int sig);

inline void throw_if_stop_requested() {
  if (const int s = stop_signal()) throw Interrupted{s};
}

}  // namespace edp::bench
