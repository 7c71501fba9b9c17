// platform::board_table() -> power::RailRoles (see board_rails.h).
#include "bench/engine/board_rails.h"

#include "platform/boards.h"

namespace edp::bench {
namespace {

power::RailRole to_power(platform::RailRole r) {
  switch (r) {
    case platform::RailRole::input:
      return power::RailRole::input;
    case platform::RailRole::inside:
      return power::RailRole::inside;
    case platform::RailRole::mux:
      return power::RailRole::mux;
    case platform::RailRole::carrier:
      return power::RailRole::carrier;
    case platform::RailRole::parallel:
      return power::RailRole::parallel;
    case platform::RailRole::fed_by:
      return power::RailRole::fed_by;
  }
  return power::RailRole::inside;
}

}  // namespace

power::RailRoles rail_roles(const std::string& model, const std::string& compatible,
                            const std::string& soc) {
  power::RailRoles roles;
  const auto& table = platform::board_table();
  const platform::BoardMatch m = platform::identify_board(model, compatible, soc);
  for (size_t i = 0; i < table.size(); ++i) {
    const auto& b = table[i];
    power::BoardRails br;
    br.name = b.name;
    for (const auto& r : b.rails) br.rails.push_back({r.name, to_power(r.role), r.parent});
    for (const char* a : b.carrier_addresses) br.carrier_addresses.push_back(a);
    br.note = b.rails_note;
    roles.boards.push_back(std::move(br));
    if (m.board == &b && m.by != "soc") roles.board = static_cast<int>(i);
  }
  if (roles.board < 0) {
    roles.board_why = model.empty() ? std::string("board unknown")
                                    : "board '" + model + "', not in the board table";
    if (m.board) roles.board_why += " (SoC " + soc + " alone does not tell its rails)";
  }
  return roles;
}

power::RailRoles rail_roles(const platform::Platform& p) {
  return rail_roles(p.model, p.compatible, p.soc);
}

}  // namespace edp::bench
