// Which idle baseline a plan item uses (DESIGN §3): the state it is taken
// in, and whether the sweep takes one before its first item. The session
// (bench/engine/session.h) measures baselines and keeps their cadence;
// `plan` replays the same rules to count them.
#pragma once

#include <string>

#include "bench/config/config.h"
#include "bench/engine/session.h"
#include "bench/protocol/plan_item.h"

namespace edp::bench {

// The state an item's baseline is taken in: a GPU item's with its CUDA
// context alive ("gpu:N"), a host item's without one ("host"), at the item's
// operating point ("@point") when the sweep has several.
std::string baseline_state(const PlanItem& item);

// Whether the runner takes a host baseline before the first item: only
// without operating points (with them, the first baseline is taken at the
// first point, in that point's state).
bool takes_sweep_baseline(const Config& cfg);

}  // namespace edp::bench
