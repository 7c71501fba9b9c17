// SIGINT/SIGTERM handling for long sweeps: the handler only records the
// signal; the runner polls stop_signal() between iterations, discards the
// configuration in progress, saves what is complete and exits 128 + signal.
#pragma once

namespace edp::bench {

void install_stop_handlers();
// 0 while no stop was requested, else the signal number (SIGINT or SIGTERM).
int stop_signal();

// Thrown inside a configuration when a stop was requested.
struct Interrupted {
  int signal;
};

inline void throw_if_stop_requested() {
  if (const int s = stop_signal()) throw Interrupted{s};
}

}  // namespace edp::bench
