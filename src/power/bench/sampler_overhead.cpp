// Sampler overhead benchmark: runs the sampler thread alone for a while and
// reports its own CPU time as a percentage of one core, plus ticks, missed
// deadlines and read failures. Figures are in docs/power.md.
//
//   edp_sampler_bench [--source S] [--sysfs-root DIR] [--trace FILE]
//                     [--rate-hz R]... [--seconds T] [--cpu N] [--timeline-hz H]
//
// --timeline-hz keeps the window's timeline at H points a second (the cost
// of power.timeline, docs/observability.md); 0 (default) keeps none.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

#include "power/energy_meter.h"

int main(int argc, char** argv) {
  edp::power::PowerOptions options;
  std::vector<double> rates;
  double seconds = 10;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "%s needs a value\n", arg.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (arg == "--source") {
      options.source = value();
    } else if (arg == "--sysfs-root") {
      options.sysfs_root = value();
    } else if (arg == "--trace") {
      options.trace_file = value();
    } else if (arg == "--rate-hz") {
      rates.push_back(std::atof(value().c_str()));
    } else if (arg == "--seconds") {
      seconds = std::atof(value().c_str());
    } else if (arg == "--cpu") {
      options.sampler_cpu = std::atoi(value().c_str());
    } else if (arg == "--timeline-hz") {
      options.timeline_hz = std::atof(value().c_str());
    } else {
      std::fprintf(stderr,
                   "usage: %s [--source S] [--sysfs-root DIR] [--trace FILE] [--rate-hz R]... "
                   "[--seconds T] [--cpu N] [--timeline-hz H]\n",
                   argv[0]);
      return arg == "--help" ? 0 : 2;
    }
  }
  if (rates.empty()) rates = {100, 1000};
  try {
    std::printf(
        "source,rails,rate_hz,timeline_hz,seconds,ticks,cpu_s,cpu_percent_of_one_core,"
        "cpu_us_per_tick,missed_deadlines,read_failures,energy_j,timeline_points\n");
    for (double rate : rates) {
      options.rate_hz = rate;
      auto meter = edp::power::EnergyMeter::open(options);
      meter.begin_window("bench");
      const double t_end = edp::power::now_s() + seconds;
      while (edp::power::now_s() < t_end) {
        struct timespec ts = {0, 100000000};  // idle main thread: 100 ms naps
        nanosleep(&ts, nullptr);
      }
      const auto m = meter.end_window("bench");
      const auto o = meter.sampler_overhead();
      std::printf("%s,%zu,%g,%g,%.2f,%zu,%.4f,%.3f,%.2f,%zu,%zu,%.3f,%zu\n",
                  meter.source_name().c_str(), meter.rail_names().size(), rate, options.timeline_hz,
                  o.wall_s, o.ticks, o.cpu_s, 100.0 * o.cpu_s / o.wall_s,
                  1e6 * o.cpu_s / static_cast<double>(o.ticks), o.missed_deadlines, o.read_failures,
                  m.energy_j(), m.timeline.t_s.size());
      std::fflush(stdout);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "edp_sampler_bench: %s\n", e.what());
    return 1;
  }
  return 0;
}
