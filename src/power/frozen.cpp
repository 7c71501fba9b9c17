// Frozen judgement per chip (see frozen.h).
#include "power/frozen.h"

namespace edp::power {

std::vector<bool> judge_frozen(const std::vector<FreezeEvidence>& rails) {
  std::vector<bool> frozen(rails.size(), false);
  for (size_t i = 0; i < rails.size(); ++i) {
    const FreezeEvidence& r = rails[i];
    if (!r.judged || r.moved) continue;
    // An idle rail that reads exactly zero keeps reading zero: the INA3221
    // reports 0 mA below one LSB of shunt voltage (40 uV), so this is no
    // evidence of a stall. Counters have no such excuse.
    if (!r.counter && r.held_value == 0) continue;
    bool sibling_moved = false;
    if (!r.chip.empty())
      for (size_t j = 0; j < rails.size(); ++j)
        if (j != i && rails[j].chip == r.chip && rails[j].moved) sibling_moved = true;
    frozen[i] = !sibling_moved;
  }
  return frozen;
}

}  // namespace edp::power
