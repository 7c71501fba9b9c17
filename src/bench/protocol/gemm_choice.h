// `gemm: auto` on the cpu backend (DESIGN §2.1): which GEMM path (Eigen or
// the build's BLAS library: cpu_auto_gemm_paths()) a configuration's
// training steps run on, chosen by measurement that is stable from one sweep
// to the next.
//
// Protocol (GemmChooser::choose): one untimed step on each path (warm caches
// and any thread pool), then kRounds rounds that time one whole step per path
// (a training step, or one GEMM of the ops study), in an order that
// changes from round to round (round_order) so that drift, and whatever a
// path leaves behind for the next, hits every path alike. The rule
// (decide_gemm_path) compares the medians: a path wins only by more than the
// noise; the paths within the noise of the fastest tie with it, and the
// fixed rule picks the first of them in the backend's order (the BLAS
// library before Eigen), and says so. The decision, with every sample, goes into the
// backend's describe() (context.json: gemm_choice) and is cached per (shape,
// threads, cpus) for the rest of the sweep, so every workload of a size runs
// on the same path.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "workloads/backend.h"
#include "workloads/mlp.h"
#include "workloads/op_workloads.h"
#include "workloads/workload.h"

namespace edp::bench {

// Samples of one path: milliseconds per training step, or the error that
// made the path unusable.
struct PathTimings {
  std::string path;
  std::vector<double> ms;
  std::string error;  // non-empty: the path failed
};

enum class GemmRule { Measured, TieFixedRule, OnlyWorkingPath, NoWorkingPath };

struct GemmDecision {
  std::string path;
  GemmRule rule = GemmRule::TieFixedRule;
  std::string why;  // for describe(): the rule, then the samples
};

// A path wins when its median is lower than every other working path's by
// more than max(kMinGain * its median, MAD of the two sample sets added).
constexpr double kMinGain = 0.05;

// The rule, a pure function of the samples. `paths` is in the backend's
// order; a tie goes to the first listed of the tied paths, no working path
// to the first path.
GemmDecision decide_gemm_path(const std::vector<PathTimings>& paths);

// The path timed in `slot` of round `round`, of `paths` paths: rounds go in
// pairs, a rotation and its reverse, the rotation moving on by one each pair
// (three paths: A B C, C B A, B C A, A C B, C A B, B A C). Over 2 x paths
// rounds every path is timed in every slot equally often and, for an odd
// number of paths (and two), right after every other path equally often
// (Williams' design for carry-over effects); two paths: A B, B A, B A, A B.
size_t round_order(size_t paths, int round, size_t slot);

std::string to_string(GemmRule r);

// "NxD_inxHxD_out": the GEMM shapes of one MLP step, as a chooser key.
std::string gemm_shape_key(const MlpShape& shape);
// "gemm MxNxK[ tA][ tB]": one GEMM of the ops study, as a chooser key.
std::string gemm_shape_key(const OpSpec& gemm);

class GemmChooser {
 public:
  static constexpr int kRounds = 7;  // samples per path
  // The wall-clock timer's sample: one step, or as many as last
  // kMinSampleS (at most kMaxStepsPerSample), timed together.
  static constexpr double kMinSampleS = 1e-3;
  static constexpr int64_t kMaxStepsPerSample = 1000;

  // Times a step (step() and a synchronize) in milliseconds.
  using StepTimer = std::function<double(Backend&, Workload&)>;

  GemmChooser();  // wall-clock timer
  explicit GemmChooser(StepTimer timer) : timer_(std::move(timer)) {}

  // Leaves `be` on the path for this (shape, threads, cpus), measuring it on
  // the first call of the sweep and reusing the decision after; the workload
  // is reset. Does nothing when the backend has one path.
  void choose(Backend& be, Workload& wl, const std::string& shape);

  // How many decisions were measured (not reused) so far.
  int measured() const { return measured_; }

  // Every decision measured so far for the backend these facts describe
  // (its describe(): threads and cpus), by shape: "path (auto: rule;
  // samples)". context.json records them with the backend's facts, one
  // "gemm_choice <shape>" each.
  std::map<std::string, std::string> decisions_for(
      const std::map<std::string, std::string>& facts) const;

 private:
  using Key = std::tuple<std::string, std::string, std::string>;  // shape, threads, cpus
  StepTimer timer_;
  std::map<Key, GemmDecision> cache_;
  int measured_ = 0;
};

}  // namespace edp::bench
