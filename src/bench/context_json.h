// context.json (DESIGN §5; its keys: common/context_schema.h), rewritten
// with the results after every item.
#pragma once

#include <string>
#include <vector>

namespace edp::bench {

struct Sweep;

// What a resumed sweep keeps of the earlier sessions' context.json: their
// start, and their baselines as JSON (DESIGN §5: one sweep, one context).
struct EarlierContext {
  std::string start_time;                    // "" when there was none
  std::vector<std::string> baselines;        // power.baselines' objects, as JSON
  std::string baseline_w, baseline_total_w;  // the reported baseline, as JSON
};

// For --resume: reads DIR/context.json through the untrusted reader (size
// cap, depth 200) and refuses (UsageError) when its board model, edpbench
// version, power source or total rails differ from this session's, naming
// the key and both values. Nothing when the file is absent.
EarlierContext earlier_context(const Sweep& s, const std::string& dir);

std::string context_json(const Sweep& s, bool complete, const EarlierContext& earlier = {});
// Now, as context.json's start_time and end_time ("2026-11-23T20:30:33Z").
std::string utc_now();

}  // namespace edp::bench
