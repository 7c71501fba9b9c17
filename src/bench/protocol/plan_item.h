// A plan item (DESIGN §9): one resumable unit of a sweep, as a value. A
// study turns the config into items; the protocol measures them; the study
// writes their records. Items are built from the config alone (nothing
// measured, nothing resolved on this machine), so `edpbench plan` and the
// tests see exactly what `run` will do.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "bench/config/config.h"
#include "workloads/workload.h"

namespace edp::bench {

// Ordered name=value pairs: the study's CSV key columns.
using Params = std::vector<std::pair<std::string, std::string>>;

// "ops:op=add,bytes=16MB,device=gpu" (DESIGN §9: the parameters are the
// identity; the same string names the energy windows, the progress label
// and the resume done-set).
std::string item_key(const std::string& study, const Params& params);

// One workload of an item: the MLP step, or a stage (forward,
// forward_backward, step), or an operator. `make` runs on the item's
// backend, once, as the part's timed set-up.
struct Part {
  std::string name;
  std::function<std::unique_ptr<Workload>(Backend&)> make;
};

// How the protocol measures every part of an item (DESIGN §3).
struct ProtocolSettings {
  int warmup_steps = 10;
  int steps = 500;  // per run, per block
  int runs = 10;    // at least this many runs
  double min_run_s = 0;
  bool min_run_auto = false;  // >= 20 sensor update intervals
  // Stopping (nvbench style): after `runs`, go on until the relative 95% CI
  // of the time is under max_rel_ci, or max_runs or time_limit_s is reached
  // (the note says which). max_rel_ci = 0: exactly `runs` runs.
  double max_rel_ci = 0;
  int max_runs = 0;
  double time_limit_s = 0;
  bool gemm_auto = false;  // choose the cpu GEMM path by measurement first
  // What the GEMM chooser's decision is reused for (with the threads and
  // CPUs): the item's GEMM shapes, "NxD_inxHxD_out" (gemm_shape_key).
  std::string gemm_shape;
};

struct PlanItem {
  std::string study, key;
  Params params;
  const DeviceSpec* device = nullptr;
  std::vector<Part> parts;
  ProtocolSettings settings;
  // The rows' size column ("small", "16MB"; "" when the item has none) and a
  // label for humans ("tensors/small/cpu"). A study's shapes are its own
  // values (mlp: n, d_in, h, d_out below).
  std::string size;
  std::string label;
  // Numbers the study records with the item for its writers (units in the
  // names; mlp and batch: n, d_in, h, d_out, gflop_per_iteration); they
  // start the ItemRecord's values.
  std::map<std::string, double> values;
  // Estimated FLOPs of the whole item, for progress.
  double flop_estimate = 0;
  // The operating point it runs at (index into Config::operating_points),
  // -1 / "" when the sweep has none.
  int point = -1;
  std::string point_name;
};

}  // namespace edp::bench
