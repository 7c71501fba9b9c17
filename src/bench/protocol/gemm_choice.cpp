// `gemm: auto` (see gemm_choice.h).
#include "bench/protocol/gemm_choice.h"

#include "bench/protocol/step_timing.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <exception>

#include "bench/engine/signals.h"
#include "common/text.h"

namespace edp::bench {
namespace {

double median(std::vector<double> v) {
  if (v.empty()) return NAN;
  std::sort(v.begin(), v.end());
  const size_t h = v.size() / 2;
  return v.size() % 2 ? v[h] : 0.5 * (v[h - 1] + v[h]);
}

// Median absolute deviation from the median: the spread of the samples,
// robust to the odd step that lost its core to another process.
double mad(const std::vector<double>& v) {
  const double m = median(v);
  std::vector<double> d;
  for (double x : v) d.push_back(std::fabs(x - m));
  return median(d);
}

bool usable(const PathTimings& p) {
  if (!p.error.empty() || p.ms.empty()) return false;
  for (double x : p.ms)
    if (!std::isfinite(x) || x < 0) return false;
  return true;
}

std::string samples_text(const std::vector<PathTimings>& paths) {
  std::string s;
  for (const auto& p : paths) {
    s += "; " + p.path;
    if (!p.error.empty()) {
      s += " failed: " + p.error;
      continue;
    }
    s += " median " + fmt("%.4g", median(p.ms)) + " ms (MAD " + fmt("%.2g", mad(p.ms)) + ") [";
    for (size_t i = 0; i < p.ms.size(); ++i) s += (i ? " " : "") + fmt("%.4g", p.ms[i]);
    s += "]";
  }
  return s;
}

}  // namespace

std::string to_string(GemmRule r) {
  switch (r) {
    case GemmRule::Measured:
      return "measured: fastest median by more than the noise";
    case GemmRule::TieFixedRule:
      return "tie within the noise: fixed rule, the first listed of the tied paths";
    case GemmRule::OnlyWorkingPath:
      return "the only path that worked";
    default:
      return "no path worked: fixed rule, first path";
  }
}

size_t round_order(size_t paths, int round, size_t slot) {
  const size_t shift = static_cast<size_t>(round / 2) % paths;
  const size_t j = round % 2 ? paths - 1 - slot : slot;
  return (j + shift) % paths;
}

GemmDecision decide_gemm_path(const std::vector<PathTimings>& paths) {
  GemmDecision d;
  std::string tie_text;
  if (paths.empty()) return d;
  std::vector<size_t> ok;
  for (size_t i = 0; i < paths.size(); ++i)
    if (usable(paths[i])) ok.push_back(i);
  if (ok.empty()) {
    d.path = paths.front().path;
    d.rule = GemmRule::NoWorkingPath;
  } else if (ok.size() == 1) {
    d.path = paths[ok.front()].path;
    d.rule = GemmRule::OnlyWorkingPath;
  } else {
    size_t best = ok.front();
    for (size_t i : ok)
      if (median(paths[i].ms) < median(paths[best].ms)) best = i;
    const double fast = median(paths[best].ms);
    // The paths within the noise of the fastest tie with it; of those, the
    // first listed wins. With three paths, a tie between the two fastest
    // must not hand the choice to a slower first path.
    size_t pick = best;
    std::vector<std::string> tied;
    for (size_t i : ok) {
      const double margin = std::max(kMinGain * fast, mad(paths[best].ms) + mad(paths[i].ms));
      if (i == best || median(paths[i].ms) - fast <= margin) {
        tied.push_back(paths[i].path);
        pick = std::min(pick, i);
      }
    }
    d.path = paths[pick].path;
    d.rule = tied.size() > 1 ? GemmRule::TieFixedRule : GemmRule::Measured;
    if (tied.size() > 1) tie_text = " (" + join(tied, ", ") + ")";
  }
  d.why = "auto: " + to_string(d.rule) + tie_text + samples_text(paths);
  return d;
}

// One sample is at least kMinSampleS of steps: a step of a small shape takes
// a microsecond or two, and a sample of one such step is mostly the clock's
// and the caches' noise (two sweeps of an 8x64x16x4 MLP chose differently:
// 1.65 against 1.37 us, a tie, then 1.69 against 1.07 us). A step longer
// than that is one sample, as before.
GemmChooser::GemmChooser()
    : timer_([](Backend&, Workload& wl) {
        const double one_s = time_steps(wl, 1).elapsed_s;
        if (!(one_s < kMinSampleS)) return 1e3 * one_s;
        const int64_t n =
            std::min<int64_t>(kMaxStepsPerSample,
                              static_cast<int64_t>(std::ceil(kMinSampleS / std::max(one_s, 1e-9))));
        return 1e3 * time_steps(wl, n).per_step_s();
      }) {}

std::string gemm_shape_key(const MlpShape& s) {
  return std::to_string(s.n) + "x" + std::to_string(s.d_in) + "x" + std::to_string(s.h) + "x" +
         std::to_string(s.d_out);
}

std::string gemm_shape_key(const OpSpec& g) {
  return "gemm " + std::to_string(g.m) + "x" + std::to_string(g.n) + "x" + std::to_string(g.k) +
         (g.trans_a ? " tA" : "") + (g.trans_b ? " tB" : "");
}

std::map<std::string, std::string> GemmChooser::decisions_for(
    const std::map<std::string, std::string>& facts) const {
  auto fact = [&](const char* k) {
    const auto it = facts.find(k);
    return it == facts.end() ? std::string() : it->second;
  };
  std::map<std::string, std::string> out;
  for (const auto& [key, d] : cache_)
    if (std::get<1>(key) == fact("threads") && std::get<2>(key) == fact("cpus"))
      out[std::get<0>(key)] = d.path + " (" + d.why + ")";
  return out;
}

void GemmChooser::choose(Backend& be, Workload& wl, const std::string& shape) {
  const std::vector<std::string> names = be.gemm_paths();
  if (names.size() < 2) return;
  const auto facts = be.describe();
  auto fact = [&](const char* k) {
    const auto it = facts.find(k);
    return it == facts.end() ? std::string() : it->second;
  };
  const Key key{shape, fact("threads"), fact("cpus")};
  if (const auto it = cache_.find(key); it != cache_.end()) {
    be.set_gemm_path(it->second.path, it->second.why +
                                          "; decided by the first configuration "
                                          "of this shape, threads and CPUs");
    return;
  }

  std::vector<PathTimings> t(names.size());
  for (size_t i = 0; i < names.size(); ++i) t[i].path = names[i];
  // Runs `f` on path i; a path that throws is out of the race (a stop request
  // is not a failure and goes on up).
  auto on_path = [&](size_t i, auto f) {
    if (!t[i].error.empty()) return;
    try {
      be.set_gemm_path(names[i], "being measured");
      f();
    } catch (const std::exception& e) {
      t[i].error = e.what();
      t[i].ms.clear();
    }
  };
  wl.reset();
  for (size_t i = 0; i < names.size(); ++i) on_path(i, [&] { timer_(be, wl); });  // warm-up
  for (int r = 0; r < kRounds; ++r) {
    throw_if_stop_requested();
    wl.reset();  // every timed step on the data of the run's first step
    for (size_t j = 0; j < names.size(); ++j) {
      const size_t i = round_order(names.size(), r, j);
      on_path(i, [&] { t[i].ms.push_back(timer_(be, wl)); });
    }
  }
  GemmDecision d = decide_gemm_path(t);
  be.set_gemm_path(d.path, d.why);
  wl.reset();
  cache_.emplace(key, std::move(d));
  ++measured_;
}

}  // namespace edp::bench
