// The mlp study, and the pieces the batch study shares with it.
#pragma once

#include <map>
#include <memory>
#include <string>

#include "bench/studies/study.h"
#include "workloads/mlp.h"

namespace edp::bench {

std::unique_ptr<Study> make_mlp_study();

// The protocol settings of an MLP item on `dev` from the config (the stages
// and deploy studies' items use them too).
ProtocolSettings mlp_settings(const Config& cfg, const DeviceSpec& dev);

// One MLP training-step item of `study` with the given key parameters.
PlanItem mlp_item(const Config& cfg, const std::string& study, const std::string& program,
                  const SizeSpec& size, const DeviceSpec& dev, Params params);

// An MLP item's shape as its values (n, d_in, h, d_out, gflop_per_iteration:
// results.csv's shape columns and GFLOP/s), and back.
std::map<std::string, double> mlp_shape_values(const SizeSpec& size);
MlpShape mlp_shape_of(const PlanItem& item);

// results.csv, runs.csv and rails.csv rows of an MLP item.
FileRows mlp_rows(const report::ItemRecord& rec);

}  // namespace edp::bench
