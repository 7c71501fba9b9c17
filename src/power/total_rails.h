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

// Where a rail sits in a board's power tree: the roles of platform/boards.h,
// handed over by bench as plain data (power does not depend on platform).
enum class RailRole {
  input,     // the module's input: every other module rail is inside it
  inside,    // a module rail inside the input
  mux,       // the carrier board's input: contains the module input and the carrier rails
  carrier,   // a carrier-board supply beside the module
  parallel,  // one of the parallel supplies whose sum is the total (no input monitor)
  fed_by,    // supplied by another rail (`parent`): never added to it
};

struct KnownRail {
  std::string name;  // the driver's label; a trailing '*' matches a prefix
  RailRole role = RailRole::inside;
  std::string parent;  // fed_by: the supplying rail
};

struct BoardRails {
  std::string name;  // "Jetson AGX Orin"
  std::vector<KnownRail> rails;
  std::vector<std::string> carrier_addresses;  // "0042" of the I2C device "0-0042"
  std::string note;  // where the sources disagree, and which is followed ("" = agree)
};

struct RailRoles {
  // Every board of the table: on an unknown board a rail name means what it
  // means on the first board that has it.
  std::vector<BoardRails> boards;
  int board = -1;         // index of the identified board in `boards`, -1 = unknown
  std::string board_why;  // how the board was identified, for `why`
};

struct TotalRails {
  std::vector<std::string> rails;  // unique rail names (EnergyMeter::rail_names())
  // What was chosen and why, and what was left out and why: one line per
  // source and per reason, for context.json and the discovery log.
  std::string why;
};

// `rails` is EnergyMeter::rails(); `roles` the board table's rail roles and
// the board identified (bench/engine/board_rails.h builds it from the platform);
// `requested` the config's power.total_rails (empty = auto).
//
// Auto: the module input of a Jetson board in the table (VDD_IN on a TX2,
// the carrier INA238's VIN on an AGX Thor, whatever source has it), the sum
// of the parallel supplies where no rail measures the input (AGX Xavier; AGX
// Orin, whose VDDQ_VDD2_1V8AO is fed by VIN_SYS_5V0 and left out),
// or a rail literally named VDD_IN / POM_5V_IN on a Jetson not in it; RAPL
// psys if present, else the packages without their subzones; every NVML GPU;
// every hwmon / ina226 / trace rail (a source whose rails carry Jetson names
// is treated as a Jetson), except that hwmon / ina226 monitors beside a
// Jetson's total are left out (outside the module, or holding its input). Where no total can be
// determined (a Jetson with no known input rail) no rail is chosen and `why` says so: energy is
// then not measured rather than guessed.
//
// An explicit list is checked: a name the sources do not have, a name given
// twice, or two rails of which one contains or feeds the other throw edp::UsageError
// saying what to write instead. With no rails at all (source none) nothing
// is chosen and nothing is refused.
TotalRails choose_total_rails(const std::vector<EnergyMeter::Rail>& rails, const RailRoles& roles,
                              const std::vector<std::string>& requested);

}  // namespace edp::power
