// The board table's rail roles (platform/boards.h) as the plain data that
// power::choose_total_rails takes: bench wires platform to power, which do
// not depend on each other (DESIGN §1).
#pragma once

#include <string>

#include "platform/platform.h"
#include "power/total_rails.h"

namespace edp::bench {

// Every board of the table, and the board the platform was identified as.
// A board told by its SoC alone is not used for rails (boards of one SoC
// name their rails differently): the generic rule applies, and board_why
// says so.
power::RailRoles rail_roles(const platform::Platform& p);
power::RailRoles rail_roles(const std::string& model, const std::string& compatible = "",
                            const std::string& soc = "");

}  // namespace edp::bench
