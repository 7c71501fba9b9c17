// context.json (DESIGN §5; its keys: common/context_schema.h), rewritten
// with the results after every item.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "common/run_context.h"  // utc_now

namespace edp::bench {

struct Sweep;

// What a resumed sweep keeps of the earlier sessions' context.json: their
// start and their baselines (DESIGN §5: one sweep, one context).
struct EarlierContext {
  std::string start_time;                  // "" when there was none
  std::vector<BaselineContext> baselines;  // power.baselines
  // The reported baseline (power.baseline_w, power.baseline_total_w).
  std::optional<std::map<std::string, double>> baseline_w;
  std::optional<double> baseline_total_w;
  // What the monitor API wrote into the directory (its rows' writers), and
  // keys this version does not know: a resume's rewrite loses neither
  // (review: it dropped `monitor`, and the monitor then refused its own rows
  // as another writer's).
  std::optional<MonitorContext> monitor;
  std::vector<std::pair<std::string, std::string>> others;
};

// For --resume: reads DIR/context.json through the untrusted reader (size
// cap, depth 200) and refuses (UsageError) when its board model, edpbench
// version, power source or total rails differ from this session's, naming
// the key and both values. Nothing when the file is absent.
EarlierContext earlier_context(const Sweep& s, const std::string& dir);

std::string context_json(const Sweep& s, bool complete, const EarlierContext& earlier = {});

}  // namespace edp::bench
