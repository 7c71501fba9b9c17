// Frozen judgement per chip (see frozen.h).
#include "power/frozen.h"

namespace edp::power {

std::vector<bool> judge_frozen(const std::vector<FreezeEvidence>& rails) {
  std::vector<bool> frozen(rails.size(), false);
  for (size_t i = 0; i < rails.size(); ++i) {
    const FreezeEvidence& r = rails[i];
    if (!r.judged || r.moved) continue;
    bool sibling_moved = false, sibling_judged = false;
    if (!r.chip.empty())
      for (size_t j = 0; j < rails.size(); ++j)
        if (j != i && rails[j].chip == r.chip) {
          sibling_moved = sibling_moved || rails[j].moved;
          sibling_judged = sibling_judged || rails[j].judged;
        }
    // An idle rail that reads exactly zero keeps reading zero: the INA3221
    // reports 0 mA below one LSB of shunt voltage (40 uV), so alone this is
    // no evidence of a stall. But when every channel of its chip held its
    // value too, the chip stopped, zeros and all (found by review: a chip
    // whose channels all held 0 W was trusted as 0 J). Counters have no
    // such excuse.
    const bool whole_chip_held = sibling_judged && !sibling_moved;
    if (!r.counter && r.held_value == 0 && !whole_chip_held) continue;
    frozen[i] = !sibling_moved;
  }
  return frozen;
}

}  // namespace edp::power
