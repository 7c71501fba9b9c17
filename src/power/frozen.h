// When a window's reading is frozen (DESIGN §3): the sensor stopped, not a
// rail that is idle. An INA3221 converts its three channels in one cycle, so
// a chip whose other channel moved is alive, and a rail that reads exactly
// 0 W (an idle DLA on the AGX Xavier's CV channel: tegrastats "CV 0mW") is
// a value, not a stall. Judged per chip: a rail is frozen when it did not
// move over a window spanning 3 or more expected updates, it does not read
// exactly zero (unless every channel of its chip held too), and no other rail
// of its chip moved. A chip that really stopped (every channel held, zeros
// included) is still caught, as is a stalled counter.
#pragma once

#include <string>
#include <vector>

namespace edp::power {

struct FreezeEvidence {
  // Where the rail is measured: rails of one chip share it (sensor name and
  // I2C device, "jetson/1-0040"); "" = a chip of its own.
  std::string chip;
  bool judged = false;    // the window spans 3+ expected updates (or the rail never moved in 2 s)
  bool moved = false;     // the value changed inside the window (counters: a positive delta)
  bool counter = false;   // an energy counter: a zero delta is a stall, never an idle rail
  double held_value = 0;  // power rails: the value held over the window (W)
};

// One flag per rail, in the order given.
std::vector<bool> judge_frozen(const std::vector<FreezeEvidence>& rails);

}  // namespace edp::power
