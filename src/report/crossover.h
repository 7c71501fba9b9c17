// The batch size from which the GPU becomes the better choice (DESIGN §9.2,
// seed 001). Pure: per-N values of both devices in, the crossover out.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace edp::report {

// One batch size: each device's per-sample value (time or energy; lower is
// better), nullopt when the device does not qualify at this N (no ok row,
// value not measured, deadline missed).
struct CrossoverPoint {
  int64_t n = 0;
  std::optional<double> cpu, gpu;
};

enum class CrossoverKind {
  none,            // no device qualifies at any N
  cpu_everywhere,  // the CPU wins (or is the only device) at every N
  gpu_everywhere,
  gpu_from,  // the CPU wins below `n`, the GPU at `n` and every larger N
  cpu_from,  // the GPU wins somewhere below `n`, the CPU at `n` and every larger N
};

struct Crossover {
  CrossoverKind kind = CrossoverKind::none;
  // gpu_from / cpu_from: the smallest measured N from which the winner of the
  // largest N wins at every larger N.
  std::optional<int64_t> n;
  // The largest N below `n` where the other device won (the crossover lies
  // between the two).
  std::optional<int64_t> last_other_n;
  int64_t n_min = 0, n_max = 0;  // the N range that had a winner
};

// The winner at one N is the lower value (a tie goes to the CPU, which needs no
// accelerator powered), or the only device that qualifies. Points may come in
// any order; N without a winner are skipped.
Crossover find_crossover(std::vector<CrossoverPoint> points);

// "GPU from N = 16 (CPU up to N = 8)", "CPU at every N (1–512)",
// "no device qualifies at any N"; `by` names the objective ("time").
std::string crossover_text(const Crossover& c);

}  // namespace edp::report
