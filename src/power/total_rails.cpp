// TEMPORARY: replaced by the total-rails work (DESIGN §4.1).
#include "power/total_rails.h"

#include <algorithm>

#include "common/errors.h"

namespace edp::power {
TotalRails choose_total_rails(const std::vector<EnergyMeter::Rail>& rails, const std::string&,
                              const std::vector<std::string>& requested) {
  TotalRails t;
  for (const auto& r : rails) {
    if (!requested.empty() &&
        std::find(requested.begin(), requested.end(), r.info.rail) == requested.end())
      continue;
    t.rails.push_back(r.info.rail);
  }
  for (const auto& q : requested)
    if (std::find(t.rails.begin(), t.rails.end(), q) == t.rails.end())
      throw UsageError("power.total_rails names '" + q + "', which the source does not have");
  t.why = requested.empty() ? "every rail" : "as configured";
  return t;
}
}  // namespace edp::power
