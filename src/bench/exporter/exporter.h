// `edpbench exporter --listen ADDR:PORT` (DESIGN §12): a long-running
// Prometheus exporter. It builds the engine's Session (the same power
// options, discovery and total rails as `run` and `measure`), starts its
// sampler, and serves the running counters on /metrics (cpp-httplib's
// server, prometheus-cpp's text serializer), read at each scrape: nothing is
// computed between scrapes but the sampler's own work.
#pragma once

#include <functional>
#include <string>

#include "bench/engine/session_options.h"

namespace edp::bench {

struct ExporterOptions {
  SessionOptions session;
  std::string listen = "127.0.0.1:9477";  // loopback unless told otherwise
  double duration_s = 0;                  // stop after this long (0: until a signal)
  // -v: what sensor discovery tried and how the total rails were chosen
  // (shown anyway when no sensor was found), as measure shows it.
  bool verbose = false;
  // Polled every 50 ms: a signal number ends the exporter with 128 + it.
  // The CLI installs its stop handlers (bench/engine/signals.h) before calling.
  std::function<int()> stop_signal = [] { return 0; };
  // How the command line names a session option in messages ("--rate-hz"):
  // the CLI's one namer (cli/power_options.h), not a copy here.
  OptionNamer option_name;
};

// Where to listen: "IPv4:PORT", "[IPv6]:PORT" or "localhost:PORT", PORT
// 0-65535 (0: any free port, printed). Returns it as HOST:PORT, localhost
// as 127.0.0.1; throws UsageError (exit 2) saying how to write one.
std::string parse_listen_address(const std::string& spec);

// Serves until SIGINT/SIGTERM (128 + signal) or duration_s (0). Prints
// "edpbench: exporter: serving http://ADDR:PORT/metrics" on stderr once it
// listens. UsageError for bad options or an address it cannot listen on.
int run_exporter(const ExporterOptions& options);

}  // namespace edp::bench
