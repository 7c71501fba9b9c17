#include "report/crossover.h"

#include <algorithm>

namespace edp::report {

Crossover find_crossover(std::vector<CrossoverPoint> points) {
  std::sort(points.begin(), points.end(),
            [](const CrossoverPoint& a, const CrossoverPoint& b) { return a.n < b.n; });
  struct Win {
    int64_t n;
    bool gpu;
  };
  std::vector<Win> wins;
  for (const auto& p : points) {
    if (p.cpu && p.gpu)
      wins.push_back({p.n, *p.gpu < *p.cpu});
    else if (p.cpu || p.gpu)
      wins.push_back({p.n, p.gpu.has_value()});
  }
  Crossover c;
  if (wins.empty()) return c;
  c.n_min = wins.front().n;
  c.n_max = wins.back().n;
  const bool tail_gpu = wins.back().gpu;
  // Walk back from the largest N while the same device wins.
  size_t first = wins.size() - 1;
  while (first > 0 && wins[first - 1].gpu == tail_gpu) --first;
  if (first == 0) {
    c.kind = tail_gpu ? CrossoverKind::gpu_everywhere : CrossoverKind::cpu_everywhere;
    return c;
  }
  c.kind = tail_gpu ? CrossoverKind::gpu_from : CrossoverKind::cpu_from;
  c.n = wins[first].n;
  c.last_other_n = wins[first - 1].n;
  return c;
}

std::string crossover_text(const Crossover& c) {
  const std::string range = c.n_min == c.n_max ? "N = " + std::to_string(c.n_min)
                                               : "N = " + std::to_string(c.n_min) + "\xE2\x80\x93" +
                                                     std::to_string(c.n_max);
  switch (c.kind) {
    case CrossoverKind::cpu_everywhere:
      return "CPU at every N (" + range + ")";
    case CrossoverKind::gpu_everywhere:
      return "GPU at every N (" + range + ")";
    case CrossoverKind::gpu_from:
      return "GPU from N = " + std::to_string(*c.n) +
             " (CPU up to N = " + std::to_string(*c.last_other_n) + ")";
    case CrossoverKind::cpu_from:
      return "CPU from N = " + std::to_string(*c.n) +
             " (the GPU won only below, last at N = " + std::to_string(*c.last_other_n) + ")";
    default:
      return "no device qualifies at any N";
  }
}

}  // namespace edp::report
