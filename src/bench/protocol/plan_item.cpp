// Plan keys (see plan.h).
#include "bench/protocol/plan_item.h"

namespace edp::bench {

std::string item_key(const std::string& study, const Params& params) {
  std::string key = study + ":";
  for (size_t i = 0; i < params.size(); ++i)
    key += (i ? "," : "") + params[i].first + "=" + params[i].second;
  return key;
}

}  // namespace edp::bench
