// `edpbench exporter --listen ADDR:PORT [power options]`: parses the
// arguments and hands over to bench::run_exporter (DESIGN §6, §12).
#include <memory>

#include "bench/engine/signals.h"
#include "bench/exporter/exporter.h"
#include "cli/command.h"
#include "cli/power_options.h"

namespace edp::cli::exporter_command {
namespace {

edp::cli::CommandRunner setup(CLI::App& sub) {
  auto o = std::make_shared<edp::bench::ExporterOptions>();
  sub.add_option("--listen", o->listen,
                 "Serve /metrics on ADDR:PORT (default 127.0.0.1:9477, loopback only; "
                 "0.0.0.0:PORT for every interface; port 0: any free port)")
      ->type_name("ADDR:PORT");
  // The same power options, ranges and messages as run, measure and sensors.
  auto power = std::make_shared<edp::cli::PowerFlags>();
  power->add_to(sub);
  sub.add_option("--duration-s", o->duration_s, "Stop after S seconds (default 0: until a signal)")
      ->type_name("S")
      ->check(edp::cli::finite_range(0, 1e9));
  sub.footer(
      "Example: edpbench exporter --listen 127.0.0.1:9477   (then curl "
      "http://127.0.0.1:9477/metrics)");
  return [o, power] {
    edp::bench::ExporterOptions opt = *o;
    power->apply(opt.session);
    opt.verbose = power->verbose();
    // Before the sampler's and the server's threads start.
    edp::bench::install_stop_handlers();
    opt.stop_signal = edp::bench::stop_signal;
    opt.option_name = edp::cli::power_option_name;
    return edp::bench::run_exporter(opt);
  };
}

const edp::cli::CommandRegistration reg(
    70, "exporter", "Serve the board's power and energy to Prometheus on /metrics", setup);

}  // namespace

}  // namespace edp::cli::exporter_command
