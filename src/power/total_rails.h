// The total rails: the rails whose sum is "energy" (DESIGN §4.1). No joule
// may be counted twice, so rails that contain one another are never summed:
// on a TX2, VDD_IN already holds VDD_SYS_GPU/CPU/SOC/DDR, and the carrier
// board's VDD_MUX holds VDD_IN; a RAPL package holds its core and uncore, and
// psys holds every package. docs/total-rails.md explains the choice per
// machine and lists the sources of the board table in total_rails.cpp.
#pragma once

#include <string>
#include <vector>

#include "power/energy_meter.h"

namespace edp::power {

struct TotalRails {
  std::vector<std::string> rails;  // unique rail names (EnergyMeter::rail_names())
  // What was chosen and why, and what was left out and why: one line per
  // source and per reason, for context.json and the discovery log.
  std::string why;
};

// `rails` is EnergyMeter::rails(); `board_model` the platform's board model
// (/proc/device-tree/model, "quill" on a TX2; "" when unknown); `requested`
// the config's power.total_rails (empty = auto).
//
// Auto: the module input of a Jetson board in the table (VDD_IN on a TX2),
// or a rail literally named VDD_IN / POM_5V_IN on a Jetson not in it; RAPL
// psys if present, else the packages without their subzones; every NVML GPU;
// every hwmon / ina226 / trace rail (a source whose rails carry Jetson names
// is treated as a Jetson). Where no total can be determined (a Jetson with no
// known input rail) no rail is chosen and `why` says so: energy is then not
// measured rather than guessed.
//
// An explicit list is checked: a name the sources do not have, a name given
// twice, or two rails of which one contains the other throw edp::UsageError
// saying what to write instead. With no rails at all (source none) nothing
// is chosen and nothing is refused.
TotalRails choose_total_rails(const std::vector<EnergyMeter::Rail>& rails,
                              const std::string& board_model,
                              const std::vector<std::string>& requested);

}  // namespace edp::power
