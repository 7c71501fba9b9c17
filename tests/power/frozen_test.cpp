// judge_frozen (power/frozen.h): a reading is frozen when the sensor stopped,
// not when a rail is idle (DESIGN §3, issue 21).
#include <catch2/catch.hpp>

#include <vector>

#include "power/frozen.h"

using edp::power::FreezeEvidence;
using edp::power::judge_frozen;

namespace {

FreezeEvidence frozen_rail(const char* chip, bool moved, double held_w, bool judged = true) {
  FreezeEvidence e;
  e.chip = chip;
  e.moved = moved;
  e.held_value = held_w;
  e.judged = judged;
  return e;
}

}  // namespace

TEST_CASE("frozen: a chip whose every channel held its value stopped", "[power][frozen]") {
  CHECK(judge_frozen({frozen_rail("jetson/1-0041", false, 0.31),
                      frozen_rail("jetson/1-0041", false, 1.86)}) == std::vector<bool>{true, true});
}

TEST_CASE("frozen: a held channel of a chip whose sibling moved is not frozen", "[power][frozen]") {
  CHECK(judge_frozen(
            {frozen_rail("jetson/1-0041", false, 0.31), frozen_rail("jetson/1-0041", true, 1.86),
             frozen_rail("jetson/1-0040", false, 1.24)}) == std::vector<bool>{false, false, true});
}

TEST_CASE("frozen: a rail reading exactly 0 W is idle, a stopped counter is not",
          "[power][frozen]") {
  // AGX Xavier CV with the DLA and PVA idle, its chip otherwise held too.
  CHECK(judge_frozen({frozen_rail("jetson/1-0041", false, 0.0)}) == std::vector<bool>{false});
  // ... but a chip whose every channel held its value stopped, zeros too.
  CHECK(judge_frozen({frozen_rail("jetson/1-0041", false, 0.0),
                      frozen_rail("jetson/1-0041", false, 0.0)}) == std::vector<bool>{true, true});
  CHECK(judge_frozen({frozen_rail("jetson/1-0041", false, 0.0),
                      frozen_rail("jetson/1-0041", false, 4.2)}) == std::vector<bool>{true, true});
  // A zero channel beside a sibling that moved is an idle rail of a live chip.
  CHECK(judge_frozen({frozen_rail("jetson/1-0041", false, 0.0),
                      frozen_rail("jetson/1-0041", true, 4.2)}) == std::vector<bool>{false, false});
  FreezeEvidence counter = frozen_rail("", false, 0.0);
  counter.counter = true;  // an energy counter whose delta is 0: it stopped
  CHECK(judge_frozen({counter}) == std::vector<bool>{true});
}

TEST_CASE("frozen: a rail without a chip is judged alone, an unjudged window never is",
          "[power][frozen]") {
  CHECK(judge_frozen({frozen_rail("", false, 3.0), frozen_rail("", true, 2.0)}) ==
        std::vector<bool>{true, false});
  CHECK(judge_frozen({frozen_rail("jetson/1-0040", false, 3.0, /*judged=*/false)}) ==
        std::vector<bool>{false});
}
