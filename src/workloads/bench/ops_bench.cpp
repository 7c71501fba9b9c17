// edp_ops_bench: times the op workloads directly (steady_clock, median of
// samples) for scripts/bench-ops.sh, which sets them against NumPy. Not the
// ops study: no energy, no protocol, no CSV files; one line per case on
// stdout: op,size,threads,time_s_median,flop,bytes; fma_peak adds
// peak_flops_at_clock,peak_flops_nominal,peak_flops_at_measured_clock,clock_hz.
//
//   edp_ops_bench [--threads N] [--samples N] [--quick]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "platform/core_clock.h"
#include "platform/peaks.h"
#include "platform/platform.h"
#include "workloads/cpu_backend.h"
#include "workloads/op_workloads.h"

namespace {

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// Median seconds per step: each sample runs enough steps for >= 20 ms.
double time_step(edp::Workload& w, int samples) {
  using clock = std::chrono::steady_clock;
  w.step();  // warm-up: first touch, thread team, caches
  w.backend().synchronize();
  const auto t0 = clock::now();
  w.step();
  w.backend().synchronize();
  const double one = std::chrono::duration<double>(clock::now() - t0).count();
  const int steps = std::max(1, static_cast<int>(0.02 / std::max(one, 1e-9)));
  std::vector<double> per_step;
  for (int s = 0; s < samples; ++s) {
    const auto start = clock::now();
    for (int i = 0; i < steps; ++i) w.step();
    w.backend().synchronize();
    per_step.push_back(std::chrono::duration<double>(clock::now() - start).count() / steps);
  }
  return median(per_step);
}

}  // namespace

int main(int argc, char** argv) {
  int threads = 2, samples = 5;
  bool quick = false;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--threads") && i + 1 < argc) {
      threads = std::atoi(argv[++i]);
    } else if (!std::strcmp(argv[i], "--samples") && i + 1 < argc) {
      samples = std::atoi(argv[++i]);
    } else if (!std::strcmp(argv[i], "--quick")) {
      quick = true;
    } else {
      std::fprintf(stderr, "usage: edp_ops_bench [--threads N] [--samples N] [--quick]\n");
      return 2;
    }
  }
  const auto platform = edp::platform::probe();
  std::vector<int> cpus = platform.online_cpus();
  if (static_cast<int>(cpus.size()) > threads) cpus.resize(static_cast<size_t>(threads));
  edp::CpuOptions options;
  options.threads = threads;
  options.cpus = cpus;
  options.gemm = "eigen";
  auto backend = edp::make_cpu_backend(options);

  const int64_t mb = 1 << 20;
  struct Case {
    const char* op;
    int64_t bytes, n;
  };
  std::vector<Case> cases = {{"copy", 256 * mb, 0},   {"add", 64 * mb, 0},  {"add", 256 * mb, 0},
                             {"mul", 64 * mb, 0},     {"mul", 256 * mb, 0}, {"scalar", 64 * mb, 0},
                             {"scalar", 256 * mb, 0}, {"tanh", 64 * mb, 0}, {"tanh", 256 * mb, 0},
                             {"gemm", 0, 1024},       {"gemm", 0, 4096},    {"fma_peak", 0, 0}};
  if (quick) cases = {{"add", 64 * mb, 0}, {"gemm", 0, 1024}, {"fma_peak", 0, 0}};
  for (const Case& c : cases) {
    edp::OpSpec spec;
    spec.op = c.op;
    spec.bytes = c.bytes;
    spec.n = c.n;
    auto w = edp::make_op_workload(spec, *backend);
    const double t = time_step(*w, samples);
    const std::string size = c.n ? "n=" + std::to_string(c.n) : std::to_string(c.bytes / mb) + "MB";
    std::printf("%s,%s,%d,%.6e,%.6e,%.6e", c.op, size.c_str(), threads, t, w->flop_per_step(),
                w->bytes_per_step());
    if (std::string(c.op) == "fma_peak") {
      // The clock read (cpufreq, else /proc/cpuinfo), the nominal one, and
      // the clock measured on this (pinned) thread right after the run.
      const auto peak = edp::platform::cpu_peak(platform, cpus);
      const double hz = edp::platform::measure_core_clock_hz();
      const auto measured = edp::platform::cpu_peak(platform, cpus, hz);
      std::printf(",%.6e,%.6e,%.6e,%.6e", peak.flops_at_clock, peak.flops_nominal,
                  measured.flops_at_clock, hz);
    }
    std::printf("\n");
    std::fflush(stdout);
  }
  return 0;
}
