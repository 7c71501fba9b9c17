// context.json (DESIGN §5; its keys: common/context_schema.h), rewritten
// with the results after every item.
#pragma once

#include <string>

#include "common/run_context.h"  // utc_now

namespace edp::bench {

struct Sweep;

std::string context_json(const Sweep& s, bool complete);

}  // namespace edp::bench
