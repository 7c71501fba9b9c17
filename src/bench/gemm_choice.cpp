// `gemm: auto` (see gemm_choice.h).
#include "bench/gemm_choice.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "bench/signals.h"

namespace edp::bench {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

}  // namespace

// Times a
// few whole training steps with each path the backend offers and keeps the
// fastest. Whole steps, because a GEMM timed alone hides what matters on a
// small machine: OpenBLAS's own thread pool spinning against the OpenMP
// workers of the element-wise work in between.
void choose_gemm_path(Backend& be, MlpWorkload& mlp, const MlpData& init) {
  const std::vector<std::string> paths = be.gemm_paths();
  if (paths.size() < 2) return;
  constexpr int kSteps = 2;
  std::vector<double> ms;
  for (const auto& path : paths) {
    be.set_gemm_path(path, "being measured");
    mlp.reset(init);
    mlp.step();  // wakes this path's thread pool
    be.synchronize();
    const auto t0 = Clock::now();
    for (int i = 0; i < kSteps; ++i) {
      throw_if_stop_requested();
      mlp.step();
    }
    be.synchronize();
    ms.push_back(seconds_since(t0) * 1e3 / kSteps);
  }
  const size_t best = static_cast<size_t>(std::min_element(ms.begin(), ms.end()) - ms.begin());
  std::string why = "auto: fastest per training step,";
  for (size_t i = 0; i < paths.size(); ++i) why += " " + paths[i] + " " + fmt("%.3g ms", ms[i]);
  be.set_gemm_path(paths[best], why);
  mlp.reset(init);
}

}  // namespace edp::bench
