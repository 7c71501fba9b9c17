// How the engine's waits and loops end on a stop request (a client's signal
// handling, bench/engine/signals.h): this exception, unwound to the client, which
// saves what is complete and exits 128 + signal.
#pragma once

namespace edp::bench {

// Thrown inside a configuration when a stop was requested.
struct Interrupted {
  int signal;
};

}  // namespace edp::bench
