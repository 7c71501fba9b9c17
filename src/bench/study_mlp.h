// The mlp study, and the pieces the batch study shares with it.
#pragma once

#include <memory>

#include "bench/study.h"

namespace edp::bench {

std::unique_ptr<Study> make_mlp_study();

// One MLP training-step item of `study` with the given key parameters.
PlanItem mlp_item(const Config& cfg, const std::string& study, const std::string& program,
                  const SizeSpec& size, const DeviceSpec& dev, Params params);

// results.csv, runs.csv and rails.csv rows of an MLP item.
FileRows mlp_rows(const report::ItemRecord& rec);

}  // namespace edp::bench
