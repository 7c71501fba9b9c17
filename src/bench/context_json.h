// context.json (DESIGN §5; its keys: common/context_schema.h), rewritten
// with the results after every item.
#pragma once

#include <string>

namespace edp::bench {

struct Sweep;

std::string context_json(const Sweep& s, bool complete);
// Now, as context.json's start_time and end_time ("2026-11-23T20:30:33Z").
std::string utc_now();

}  // namespace edp::bench
