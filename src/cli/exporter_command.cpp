// `edpbench exporter --listen ADDR:PORT [power options]`: parses the
// arguments and hands over to bench::run_exporter (DESIGN §6, §12).
#include <memory>

#include "bench/engine/signals.h"
#include "bench/exporter/exporter.h"
#include "cli/command.h"
#include "cli/power_options.h"

namespace {

edp::cli::CommandRunner setup(CLI::App& sub) {
  auto o = std::make_shared<edp::bench::ExporterOptions>();
  sub.add_option("--listen", o->listen,
                 "Serve /metrics on ADDR:PORT (default 127.0.0.1:9477, loopback only; "
                 "0.0.0.0:PORT for every interface; port 0: any free port)")
      ->type_name("ADDR:PORT");
  sub.add_option("--power-source", o->session.power.source,
                 "Power source: auto|jetson|ina226|hwmon|rapl|nvml|trace|none (default auto)")
      ->type_name("S");
  sub.add_option("--sysfs-root", o->session.sysfs_root,
                 "Prefix every /sys and /dev path with DIR (fake trees, containers)")
      ->type_name("DIR");
  sub.add_option("--rate-hz", o->session.power.rate_hz, "Sampling rate (default 100)")
      ->type_name("HZ");
  sub.add_option("--total-rails", o->session.power.total_rails,
                 "Rails whose sum is the energy, e.g. VDD_IN (default: chosen automatically)")
      ->type_name("A,B")
      ->delimiter(',');
  sub.add_option("--trace", o->session.power.trace.file,
                 "Trace CSV to replay, looped (implies --power-source trace)")
      ->type_name("FILE");
  sub.add_option("--duration-s", o->duration_s, "Stop after S seconds (default 0: until a signal)")
      ->type_name("S")
      ->check(edp::cli::finite_range(0, 1e9));
  sub.footer(
      "Example: edpbench exporter --listen 127.0.0.1:9477   (then curl "
      "http://127.0.0.1:9477/metrics)");
  return [o] {
    edp::bench::ExporterOptions opt = *o;
    if (!opt.session.power.trace.file.empty() && opt.session.power.source == "auto")
      opt.session.power.source = "trace";
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
