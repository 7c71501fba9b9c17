// Choosing the total rails (DESIGN §4.1, docs/total-rails.md).
#include "power/total_rails.h"

#include <algorithm>
#include <utility>

#include "common/errors.h"
#include "common/text.h"

namespace edp::power {
namespace {

using Role = RailRole;
using Board = BoardRails;

// The rail names that are the module input on every board that has them
// ([JTOP] uses the same two).
const char* const kGenericInputs[] = {"VDD_IN", "POM_5V_IN"};

bool contains(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

const Board* find_board(const RailRoles& roles) {
  if (roles.board < 0 || static_cast<size_t>(roles.board) >= roles.boards.size()) return nullptr;
  return &roles.boards[static_cast<size_t>(roles.board)];
}

bool name_matches(const std::string& pattern, const std::string& name) {
  if (!pattern.empty() && pattern.back() == '*')
    return name.compare(0, pattern.size() - 1, pattern, 0, pattern.size() - 1) == 0;
  return name == pattern;
}

// The rail's name as its sensor gave it: the meter prefixes "<sensor>:" to
// a name that an earlier source already uses.
std::string base_name(const EnergyMeter::Rail& r) {
  const std::string prefix = r.sensor + ":";
  if (r.info.rail.rfind(prefix, 0) == 0) return r.info.rail.substr(prefix.size());
  return r.info.rail;
}

const KnownRail* role_on(const Board& b, const std::string& name) {
  for (const auto& k : b.rails)
    if (name_matches(k.name, name)) return &k;
  return nullptr;
}

// The rail's role on `board`, or, when the board is unknown, on the first
// board of the table that names it (names mean the same on every board).
const KnownRail* known_role(const RailRoles& roles, const Board* board, const std::string& name) {
  if (board) return role_on(*board, name);
  for (const auto& b : roles.boards)
    if (const KnownRail* k = role_on(b, name)) return k;
  return nullptr;
}

bool is_input_name(const RailRoles& roles, const Board* board, const std::string& name) {
  const KnownRail* k = known_role(roles, board, name);
  if (k) return k->role == Role::input;
  if (board) return false;
  for (const char* g : kGenericInputs)
    if (name == g) return true;
  return false;
}

bool has_parts(const Board& b) {
  for (const auto& k : b.rails)
    if (k.role == Role::parallel) return true;
  return false;
}

std::string address_of(const std::string& device) {
  const size_t dash = device.find('-');
  return dash == std::string::npos ? device : device.substr(dash + 1);
}

// What one source contributes to the total.
struct Pick {
  std::vector<std::string> chosen;
  std::string summary;
  std::vector<std::pair<std::string, std::string>> left_out;  // rail, reason
  bool undetermined = false;
  bool jetson = false;    // from pick_jetson
  bool external = false;  // a separate hwmon / ina226 monitor, taken to be independent
};

using Rails = std::vector<const EnergyMeter::Rail*>;

std::string names_of(const Rails& rs) {
  std::vector<std::string> v;
  for (const auto* r : rs) v.push_back(r->info.rail);
  return join(v, ", ");
}

// A source with Jetson rail names: the jetson source itself, or a trace or
// hwmon whose rails carry the names of the board table.
Pick pick_jetson(const std::string& sensor, const Rails& rs, const RailRoles& roles,
                 const Board* board) {
  Pick p;
  const std::string where =
      board ? board->name : (roles.board_why.empty() ? "board unknown" : roles.board_why);
  if (board && has_parts(*board)) {
    std::vector<std::string> missing;
    for (const auto& k : board->rails) {
      if (k.role != Role::parallel) continue;
      const auto it = std::find_if(rs.begin(), rs.end(), [&](const EnergyMeter::Rail* r) {
        return name_matches(k.name, base_name(*r));
      });
      if (it == rs.end())
        missing.push_back(k.name);
      else
        p.chosen.push_back((*it)->info.rail);
    }
    if (!missing.empty()) {
      p.undetermined = true;
      p.chosen.clear();
      p.summary = sensor + " (" + where + "): no total: the module's power is the sum of its " +
                  "supply rails, and " + join(missing, ", ") + " is missing (the source has " +
                  names_of(rs) + ")";
      return p;
    }
    p.summary = sensor + " (" + where + "): " + join(p.chosen, " + ") +
                ", the module's parallel supplies (no rail measures the module input; board table)";
    for (const auto& k : board->rails)
      if (k.role == Role::fed_by)
        p.summary += "; " + k.name + " is fed by " + k.parent + " and is not added to it";
    if (!board->note.empty()) p.summary += " (" + board->note + ")";
    for (const auto* r : rs) {
      if (contains(p.chosen, r->info.rail)) continue;
      const KnownRail* k = role_on(*board, base_name(*r));
      if (k && k->role == Role::fed_by)
        p.left_out.push_back(
            {r->info.rail, "fed by " + k->parent + ", so inside it: never added to it"});
      else
        p.left_out.push_back({r->info.rail, "not in the " + board->name + " table"});
    }
    return p;
  }

  const EnergyMeter::Rail* input = nullptr;
  if (board) {
    for (const auto& k : board->rails) {
      if (k.role != Role::input) continue;
      for (const auto* r : rs)
        if (!input && name_matches(k.name, base_name(*r))) input = r;
    }
  } else {
    for (const char* g : kGenericInputs)
      for (const auto* r : rs)
        if (!input && base_name(*r) == g) input = r;
  }
  if (!input) {
    p.undetermined = true;
    if (board) {
      std::vector<std::string> inputs;
      for (const auto& k : board->rails)
        if (k.role == Role::input) inputs.push_back(k.name);
      p.summary = sensor + " (" + where + "): no total: the module input (" + join(inputs, " or ") +
                  ") is not among the rails (" + names_of(rs) +
                  "), and the carrier's or the sub-rails are no substitute";
    } else {
      p.summary = sensor + " (" + where + "): no total: no rail is named VDD_IN or POM_5V_IN, " +
                  "and edpbench does not guess which of " + names_of(rs) + " nest";
    }
    return p;
  }
  const std::string in = input->info.rail;
  p.chosen.push_back(in);
  p.summary = sensor + " (" + where + "): " + in + ", the module input" +
              (board ? " (board table)" : " (its name on every board in the table)");
  if (board && !board->note.empty()) p.summary += " (" + board->note + ")";
  for (const auto* r : rs) {
    if (r == input) continue;
    const std::string name = base_name(*r);
    const KnownRail* k = known_role(roles, board, name);
    std::string why;
    if (k && k->role == Role::inside) {
      why = "inside " + in;
    } else if (k && k->role == Role::fed_by) {
      why = "fed by " + k->parent + ", inside " + in;
    } else if (k && k->role == Role::input) {
      why = "another name of the module input " + in + ": never added to it";
    } else if (k && k->role == Role::mux) {
      why = "the carrier board's input, which contains " + in + ": never added to it";
    } else if (k && k->role == Role::carrier) {
      why = "carrier-board supplies, outside the module";
    } else if (board && !r->info.device.empty() &&
               std::any_of(board->carrier_addresses.begin(), board->carrier_addresses.end(),
                           [&](const std::string& a) { return address_of(r->info.device) == a; })) {
      why = "on the carrier board's monitor (" + r->info.device + "), outside the module";
    } else {
      why = "not in the " + (board ? board->name : std::string("board")) +
            " table: taken to be inside " + in + " or outside the module";
    }
    p.left_out.push_back({r->info.rail, why});
  }
  return p;
}

Pick pick_rapl(const Rails& rs) {
  Pick p;
  const auto psys = std::find_if(
      rs.begin(), rs.end(), [](const EnergyMeter::Rail* r) { return base_name(*r) == "psys"; });
  if (psys != rs.end()) {
    p.chosen.push_back((*psys)->info.rail);
    p.summary =
        "rapl: " + (*psys)->info.rail + ", the platform domain, which contains every package";
    for (const auto* r : rs)
      if (r != *psys) p.left_out.push_back({r->info.rail, "inside psys"});
    return p;
  }
  for (const auto* r : rs)
    if (r->info.parent.empty()) p.chosen.push_back(r->info.rail);
  p.summary = "rapl: " + join(p.chosen, " + ") + ", the package" +
              (p.chosen.size() > 1 ? "s" : "") + " (no psys zone)";
  for (const auto* r : rs)
    if (!r->info.parent.empty()) p.left_out.push_back({r->info.rail, "inside " + r->info.parent});
  return p;
}

// Every rail, each taken to be an independent supply.
Pick pick_all(const std::string& sensor, const Rails& rs, const char* what) {
  Pick p;
  for (const auto* r : rs) p.chosen.push_back(r->info.rail);
  p.summary = sensor + ": " + join(p.chosen, " + ") + " (" + what + ")";
  return p;
}

// The source names of the meter: "jetson", "rapl+nvml".
std::string source_names(const std::vector<EnergyMeter::Rail>& rails) {
  std::vector<std::string> sensors;
  for (const auto& r : rails)
    if (!contains(sensors, r.sensor)) sensors.push_back(r.sensor);
  return join(sensors, "+");
}

// The rails of `rails` grouped by sensor, in order of first appearance.
std::vector<std::pair<std::string, Rails>> by_sensor(const std::vector<EnergyMeter::Rail>& rails) {
  std::vector<std::pair<std::string, Rails>> groups;
  for (const auto& r : rails) {
    auto it = std::find_if(groups.begin(), groups.end(),
                           [&](const auto& g) { return g.first == r.sensor; });
    if (it == groups.end()) {
      groups.push_back({r.sensor, {}});
      it = groups.end() - 1;
    }
    it->second.push_back(&r);
  }
  return groups;
}

TotalRails choose_auto(const std::vector<EnergyMeter::Rail>& rails, const RailRoles& roles) {
  const Board* board = find_board(roles);
  // A source carries Jetson names when it is the jetson source, or when one
  // of its rails is a module input (a trace of VDD_IN, the AGX Thor's INA238
  // VIN on hwmon) or, on a known board, any rail of the board's table.
  auto jetson_named = [&](const std::string& sensor, const Rails& rs) {
    if (sensor == "jetson") return true;
    if (sensor != "trace" && sensor != "hwmon" && sensor != "ina226") return false;
    for (const auto* r : rs) {
      if (is_input_name(roles, board, base_name(*r))) return true;
      if (board && role_on(*board, base_name(*r))) return true;
    }
    return false;
  };
  // On a known board the Jetson-named sources are one power tree (the Thor's
  // input is on hwmon, its module rails on the jetson source): chosen together.
  std::string merged_name;
  Rails merged;
  for (const auto& [sensor, rs] : by_sensor(rails))
    if (board && jetson_named(sensor, rs)) {
      merged_name += (merged_name.empty() ? "" : "+") + sensor;
      merged.insert(merged.end(), rs.begin(), rs.end());
    }
  std::vector<Pick> picks;
  bool merged_done = false;
  for (const auto& [sensor, rs] : by_sensor(rails)) {
    const bool jetson_names = jetson_named(sensor, rs);
    if (board && jetson_names) {
      if (!merged_done) {
        picks.push_back(pick_jetson(merged_name, merged, roles, board));
        picks.back().jetson = true;
      }
      merged_done = true;
    } else if (sensor == "rapl") {
      picks.push_back(pick_rapl(rs));
    } else if (sensor == "nvml") {
      picks.push_back(pick_all(sensor, rs, "each GPU's own board power"));
    } else if (jetson_names) {
      picks.push_back(pick_jetson(sensor, rs, roles, board));
      picks.back().jetson = true;
    } else if (sensor == "trace") {
      picks.push_back(pick_all(sensor, rs, "a test source: its rails are taken to be independent"));
    } else if (sensor == "simulated") {
      picks.push_back(pick_all(sensor, rs, "a simulated test source: its one rail is the whole"));
    } else {
      picks.push_back(pick_all(sensor, rs, "separate monitors, taken to be independent"));
      picks.back().external = sensor == "hwmon" || sensor == "ina226";
    }
  }

  // Beside a Jetson's own monitors, a separate hwmon / ina226 monitor (a
  // user's INA226 on the I2C bus) is outside the module, or on the board's
  // supply and so holds the module input: not module energy either way, like
  // the carrier's rails. Left out, unless power.total_rails names it.
  const bool jetson_total = std::any_of(picks.begin(), picks.end(), [](const Pick& p) {
    return p.jetson && !p.undetermined && !p.chosen.empty();
  });
  for (auto& p : picks) {
    if (!jetson_total || !p.external) continue;
    for (const auto& name : p.chosen)
      p.left_out.push_back({name,
                            "a separate monitor beside the Jetson's: outside the module, or on "
                            "its supply (holding the module input); name it in power.total_rails "
                            "to add it"});
    p.summary = p.summary.substr(0, p.summary.find(':')) + ": none of its rails";
    p.chosen.clear();
  }

  TotalRails out;
  bool undetermined = false;
  for (const auto& p : picks) undetermined |= p.undetermined;
  std::vector<std::string> lines;
  for (const auto& p : picks) {
    if (!undetermined) out.rails.insert(out.rails.end(), p.chosen.begin(), p.chosen.end());
    lines.push_back(p.summary);
    // One line per reason, the rails in their order.
    std::vector<std::string> reasons;
    for (const auto& lo : p.left_out)
      if (!contains(reasons, lo.second)) reasons.push_back(lo.second);
    for (const auto& reason : reasons) {
      std::vector<std::string> names;
      for (const auto& lo : p.left_out)
        if (lo.second == reason) names.push_back(lo.first);
      lines.push_back("  left out " + join(names, ", ") + ": " + reason);
    }
  }
  std::string head;
  if (undetermined) {
    head =
        "energy is not measured: no total could be determined without guessing which rails "
        "nest (below). Name the rails whose sum is the total in power.total_rails (edpbench "
        "sensors lists them).";
    for (const auto& p : picks)
      if (!p.undetermined && !p.chosen.empty()) {
        head += " The other sources' rails are not summed alone: that would read as the whole.";
        break;
      }
  } else {
    head = "energy = " + join(out.rails, " + ") + " (total_rails: auto)";
  }
  out.why = head + "\n" + join(lines, "\n");
  return out;
}

// How `outer` contains `inner`, or "" when it does not (as far as known).
// Both are rails of the same source.
std::string containment(const EnergyMeter::Rail& outer, const EnergyMeter::Rail& inner,
                        const RailRoles& roles, const Board* board) {
  // Jetson names nest across sources too (the AGX Thor's input is on hwmon,
  // its module rails on the jetson source); RAPL and NVML only within theirs.
  const auto own_tree = [](const std::string& s) { return s == "rapl" || s == "nvml"; };
  if (outer.sensor != inner.sensor && (own_tree(outer.sensor) || own_tree(inner.sensor))) return "";
  const std::string o = base_name(outer), i = base_name(inner);
  if (outer.sensor == "rapl") {
    if (o == "psys") return inner.info.rail + " is inside psys, the whole platform";
    if (inner.info.parent == o) return inner.info.rail + " is inside " + outer.info.rail;
    return "";
  }
  // Jetson names: on the board, or on any board of the table that has both.
  for (const auto& b : roles.boards) {
    if (board && &b != board) continue;
    const KnownRail* ko = role_on(b, o);
    const KnownRail* ki = role_on(b, i);
    if (!ko || !ki) continue;
    // One rail read by two sources (the jetson source and a trace or hwmon
    // of the same monitor): the meter names the second "<sensor>:RAIL".
    if (o == i && outer.sensor != inner.sensor)
      return inner.info.rail + " and " + outer.info.rail +
             " are the same rail, read by two sources";
    if (ki->role == Role::fed_by && name_matches(ki->parent, o))
      return inner.info.rail + " is fed by " + outer.info.rail + " (on a " + b.name +
             ": its power is already in " + outer.info.rail + ")";
    if (ko->role == Role::input && (ki->role == Role::inside || ki->role == Role::fed_by))
      return inner.info.rail + " is inside " + outer.info.rail + " (the module input on a " +
             b.name + ")";
    // The carrier's input holds the module input and so every rail inside it.
    if (ko->role == Role::mux && (ki->role == Role::input || ki->role == Role::carrier ||
                                  ki->role == Role::inside || ki->role == Role::fed_by))
      return inner.info.rail + " is inside " + outer.info.rail +
             " (the carrier board's input on a " + b.name + ")";
  }
  return "";
}

TotalRails check_requested(const std::vector<EnergyMeter::Rail>& rails, const RailRoles& roles,
                           const std::vector<std::string>& requested) {
  std::vector<const EnergyMeter::Rail*> picked;
  std::vector<std::string> unknown, all;
  for (const auto& r : rails) all.push_back(r.info.rail);
  for (const auto& name : requested) {
    const auto it = std::find_if(rails.begin(), rails.end(),
                                 [&](const EnergyMeter::Rail& r) { return r.info.rail == name; });
    if (it == rails.end()) {
      unknown.push_back("'" + name + "'");
      continue;
    }
    if (std::find(picked.begin(), picked.end(), &*it) != picked.end())
      throw UsageError("power.total_rails names '" + name +
                       "' twice; a rail counted twice counts its joules twice");
    picked.push_back(&*it);
  }
  if (!unknown.empty())
    throw UsageError("power.total_rails names " + join(unknown, ", ") + ", which the " +
                     source_names(rails) + " source does not have (it has: " + join(all, ", ") +
                     ")");

  const Board* board = find_board(roles);
  std::vector<std::string> nested, drop;
  for (size_t ia = 0; ia < picked.size(); ++ia)
    for (size_t ib = 0; ib < picked.size(); ++ib) {
      const auto *a = picked[ia], *b = picked[ib];
      if (a == b) continue;
      // The same rail from two sources contains itself both ways: judged
      // once, keeping the one named first.
      const bool same = base_name(*a) == base_name(*b) && a->sensor != b->sensor;
      if (same && ia > ib) continue;
      const std::string how = containment(*a, *b, roles, board);
      if (how.empty()) continue;
      nested.push_back(how);
      // Keep the outer rail, except that a carrier board's input gives way
      // to the module input it contains: the module is what is measured.
      const KnownRail* k = known_role(roles, board, base_name(*a));
      const bool carrier_input = !same && a->sensor != "rapl" && k && k->role == Role::mux;
      const std::string gone = carrier_input ? a->info.rail : b->info.rail;
      if (!contains(drop, gone)) drop.push_back(gone);
    }
  if (!nested.empty()) {
    std::vector<std::string> keep;
    for (const auto& name : requested)
      if (!contains(drop, name)) keep.push_back(name);
    throw UsageError("power.total_rails would count joules twice: " + join(nested, "; ") +
                     ". Use total_rails: [" + join(keep, ", ") + "] or auto.");
  }
  TotalRails out;
  out.rails = requested;
  out.why = "energy = " + join(requested, " + ") +
            " (power.total_rails; checked: the rails exist and none contains another" +
            (board ? " on a " + board->name : std::string()) + ")";
  return out;
}

}  // namespace

TotalRails choose_total_rails(const std::vector<EnergyMeter::Rail>& rails, const RailRoles& roles,
                              const std::vector<std::string>& requested) {
  if (rails.empty()) {
    TotalRails none;
    none.why = "energy is not measured: no power source";
    if (!requested.empty())
      none.why += " (power.total_rails [" + join(requested, ", ") + "] is not used)";
    return none;
  }
  if (!requested.empty()) return check_requested(rails, roles, requested);
  return choose_auto(rails, roles);
}

}  // namespace edp::power
