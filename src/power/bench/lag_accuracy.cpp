// Lag accuracy table (docs/lag-accuracy.md, docs/power.md): the real
// EnergyMeter on a simulated TX2 INA3221 (tests/power/ina3221_sim.h), step
// runs from idle to a higher power of several lengths, each started at
// several phases of the sensor's update period; run energy with and without
// the lag correction against the exact integral of the true signal.
//
//   edp_lag_accuracy [--seconds 0.5,1,2,4,10] [--phases 4] [--idle-w 2] [--run-w 8]
//                    [--period-s 0.43] [--jitter-s 0] [--noise-w 0.01] [--rate-hz 100]
//                    [--settle-s 2] [--csv]
//
// Prints one markdown row per run length: median and worst (largest |error|)
// over the phases. --csv prints every run instead.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "power/energy_meter.h"
#include "power/ina3221_sim.h"

namespace {

std::vector<double> parse_list(const std::string& text) {
  std::vector<double> out;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) out.push_back(std::atof(item.c_str()));
  return out;
}

double median(std::vector<double> v) {
  for (double x : v)
    if (std::isnan(x)) return NAN;  // a missing figure (e.g. no uncorrected energy)
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n == 0 ? NAN : n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

double worst(const std::vector<double>& v) {  // the value with the largest magnitude
  double w = 0;
  for (double x : v)
    if (std::isnan(x) || std::fabs(x) > std::fabs(w)) w = x;
  return w;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<double> lengths = {0.5, 1, 2, 4, 10};
  int phases = 4;
  double idle_w = 2, run_w = 8, settle_s = 2;
  bool csv = false;
  edp::testing::Ina3221SimOptions sim_options;
  edp::power::PowerOptions options;
  options.source = "jetson";
  options.rate_hz = 100;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "%s needs a value\n", arg.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (arg == "--seconds") {
      lengths = parse_list(value());
    } else if (arg == "--phases") {
      phases = std::max(1, std::atoi(value().c_str()));
    } else if (arg == "--idle-w") {
      idle_w = std::atof(value().c_str());
    } else if (arg == "--run-w") {
      run_w = std::atof(value().c_str());
    } else if (arg == "--period-s") {
      sim_options.update_period_s = std::atof(value().c_str());
    } else if (arg == "--jitter-s") {
      sim_options.jitter_s = std::atof(value().c_str());
    } else if (arg == "--noise-w") {
      sim_options.noise_w = std::atof(value().c_str());
    } else if (arg == "--rate-hz") {
      options.rate_hz = std::atof(value().c_str());
    } else if (arg == "--settle-s") {
      settle_s = std::atof(value().c_str());
    } else if (arg == "--csv") {
      csv = true;
    } else {
      std::fprintf(stderr,
                   "usage: %s [--seconds L,L,...] [--phases N] [--idle-w W] [--run-w W] "
                   "[--period-s S] [--jitter-s S] [--noise-w W] [--rate-hz R] [--settle-s S] "
                   "[--csv]\n",
                   argv[0]);
      return arg == "--help" ? 0 : 2;
    }
  }
  try {
    sim_options.idle_w = idle_w;
    edp::testing::Ina3221Sim sim(sim_options);
    options.sysfs_root = sim.root();
    auto meter = edp::power::EnergyMeter::open(options);
    meter.set_total_rails({"VDD_IN"});
    meter.start();
    std::this_thread::sleep_for(std::chrono::duration<double>(settle_s));

    std::printf(
        "# VDD_IN %g W -> %g W, update period %g s, jitter %g s, noise %g W, "
        "sampler %g Hz, %d phases per length\n",
        idle_w, run_w, sim_options.update_period_s, sim_options.jitter_s, sim_options.noise_w,
        options.rate_hz, phases);
    if (csv)
      std::printf(
          "run_s,phase,true_j,uncorrected_j,uncorrected_error,corrected_j,corrected_error,"
          "lag_correction_s,update_interval_s\n");
    else
      std::printf(
          "| run (s) | true (J) | uncorrected error, median (worst) | corrected error, "
          "median (worst) | lag_correction_s (median) |\n"
          "| ---: | ---: | ---: | ---: | ---: |\n");
    std::fflush(stdout);
    for (double seconds : lengths) {
      std::vector<double> true_j, err_u, err_c, lag;
      for (int p = 0; p < phases; ++p) {
        const double phase = static_cast<double>(p) / phases;
        const auto s = edp::testing::step_run(meter, sim, seconds, phase, idle_w, run_w);
        true_j.push_back(s.true_j);
        err_u.push_back(s.error_uncorrected());
        err_c.push_back(s.error_corrected());
        lag.push_back(s.lag_correction_s);
        if (csv) {
          std::printf("%g,%.3f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.4f\n", seconds, phase, s.true_j,
                      s.uncorrected_j, s.error_uncorrected(), s.corrected_j, s.error_corrected(),
                      s.lag_correction_s, s.update_interval_s);
          std::fflush(stdout);
        }
      }
      if (!csv) {
        std::printf("| %g | %.2f | %+.1f%% (%+.1f%%) | %+.1f%% (%+.1f%%) | %.3f |\n", seconds,
                    median(true_j), 100 * median(err_u), 100 * worst(err_u), 100 * median(err_c),
                    100 * worst(err_c), median(lag));
        std::fflush(stdout);
      }
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "edp_lag_accuracy: %s\n", e.what());
    return 1;
  }
  return 0;
}
