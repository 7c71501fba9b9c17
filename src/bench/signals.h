// Stop signals for long sweeps and restores: SIGINT, SIGTERM, SIGHUP (an ssh
// drop) and SIGPIPE (`run ... 2>&1 | head`) all take the same path. The
// handler only records the first signal; the runner polls stop_signal()
// between iterations, discards the configuration in progress, restores the
// board's clocks, saves what is complete and exits 128 + signal (130, 143,
// 129, 141). run and restore install the handlers first thing, before any
// file is read, anything is measured or any clock changed.
#pragma once

namespace edp::bench {

// Idempotent. A second SIGINT/SIGTERM/SIGHUP takes the default action (the
// way out of a hang is one more Ctrl-C); SIGPIPE stays caught, so that a
// write to the closed pipe while the clocks are being restored cannot kill
// the process halfway (the write fails with EPIPE instead).
void install_stop_handlers();
// 0 while no stop was requested, else the first signal's number.
int stop_signal();

// Thrown inside a configuration when a stop was requested.
struct Interrupted {
  int signal;
};

inline void throw_if_stop_requested() {
  if (const int s = stop_signal()) throw Interrupted{s};
}

}  // namespace edp::bench
