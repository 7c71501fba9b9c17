// `edpbench exporter --listen ADDR:PORT` (DESIGN §12): a long-running
// Prometheus exporter. It builds the engine's Session (the same power
// options, discovery and total rails as `run` and `measure`), starts its
// sampler, and serves the running counters on /metrics (cpp-httplib's
// server, prometheus-cpp's text serializer), read at each scrape: nothing is
// computed between scrapes but the sampler's own work.
#pragma once

#include <cmath>
#include <cstddef>
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

// A sweep seen from outside (`run --prometheus-textfile DIR`): what
// node_exporter's textfile collector serves for it.
struct SweepProgress {
  std::string out_dir;                // the sweep's --out (a label)
  size_t items_total = 0;             // planned, resumed ones included
  size_t items_done = 0;              // finished (ok, failed or skipped), resumed ones included
  size_t items_failed = 0;            // failed or skipped in this process
  std::string status = "running";     // running | finished | interrupted | failed
  std::string last_key, last_status;  // the last item finished ("" none yet)
  double last_time_s = NAN, last_energy_j = NAN, last_edp_js = NAN;  // its means
  double started_unix_s = 0, updated_unix_s = 0;
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
