// Choosing the total rails (DESIGN §4.1, docs/total-rails.md).
#include "power/total_rails.h"

#include <algorithm>
#include <cctype>
#include <utility>

#include "common/errors.h"

namespace edp::power {
namespace {

// Where a rail sits in a Jetson board's power tree.
enum class Role {
  input,    // the module's input: every other module rail is inside it
  inside,   // a module rail inside the input
  mux,      // the carrier board's input: contains the module input and the carrier rails
  carrier,  // a carrier-board supply beside the module (inside the mux)
  part,     // boards with no input monitor: one of the parallel supplies whose sum is the total
};

struct KnownRail {
  const char* name;
  Role role;
};

struct Board {
  const char* name;
  // Lower-case substrings of the board model string that identify the board:
  // the L4T device-tree model, the L4T family name, or the module/devkit
  // part number (in case the compatible string is passed instead).
  std::vector<const char*> patterns;
  std::vector<KnownRail> rails;
  // I2C addresses of the carrier board's INA3221s ("0042" of "0-0042").
  std::vector<const char*> carrier_addresses;
};

// The board table. Sources:
//  [L4T32] NVIDIA L4T R32 Developer Guide, "Clock Frequency and Power
//          Management", the power-monitoring section of each board
//          (docs.nvidia.com/jetson/l4t/), as tabulated together with the
//          L4T 32.6.1 device trees in energymon's jetson/JetsonPowerRails.md
//          (github.com/energymon/energymon). That table also gives the L4T
//          family names: quill (TX2, TX2i, TX2 4GB), lanai (TX2 NX), porg
//          (Nano), jakku (Xavier NX), galen (AGX Xavier).
//  [JL36]  NVIDIA Jetson Linux R35/R36 Developer Guide, "Jetson Orin Nano
//          Series, Jetson Orin NX Series and Jetson AGX Orin Series"
//          (docs.nvidia.com/jetson/archives/r36.3/DeveloperGuide/SD/
//          PlatformPowerAndPerformance/), power monitoring.
//  [DT234] Linux arch/arm64/boot/dts/nvidia/tegra234-p3701.dtsi (AGX Orin)
//          and tegra234-p3767.dtsi (Orin NX/Nano): the INA3221 labels
//          ("arm64: tegra: Add power-sensors for Tegra234 boards", 2023).
//  [JTOP]  jetson_stats, jtop/core/power.py (github.com/rbonghi/jetson_stats):
//          VDD_IN or POM_5V_IN is the total where present, else the sum of
//          every rail.
//  [XDG]   Jetson AGX Xavier Series Product Design Guide DG-09840-001,
//          §5.2 and §5.6.2: the monitors see VDD_GPU, VDD_CPU, VDD_SOC,
//          VDD_CV, VDD_DDRQ and SYS_VIN_MV, all fed from the main source.
//  [F75574] forums.developer.nvidia.com/t/75574 (NVIDIA reply): SYS5V is
//          every part except DDR, CPU, GPU and CV.
// Model strings: "quill" is what a TX2 on L4T R32 reports (our fixture
// tests/fixtures/platform/tx2), "lanai-3636" what a TX2 NX reports (public
// jetson_release output). The product-name patterns ("jetson nano",
// "xavier nx", "agx orin", ...) and "concord" (AGX Orin) are from memory of
// the devkits' device trees and are unverified.
const std::vector<Board>& board_table() {
  static const std::vector<Board> table = {
      // [L4T32]: one INA3221 at 0x40 on the module.
      {"Jetson TX2 NX",
       {"lanai", "p3636", "tx2 nx"},
       {{"VDD_IN", Role::input}, {"VDD_CPU_GPU", Role::inside}, {"VDD_SOC", Role::inside}},
       {}},
      // [L4T32], [JTOP]. Module: 0x40 VDD_SYS_GPU, VDD_SYS_SOC, VDD_4V0_WIFI
      // (absent on the TX2i); 0x41 VDD_IN, VDD_SYS_CPU, VDD_SYS_DDR. Carrier
      // (P2597): 0x42 VDD_MUX, VDD_5V0_IO_SYS (the guide says VDD_5V_IO_SYS),
      // VDD_3V3_SYS; 0x43 VDD_3V3_IO_SLP, VDD_1V8_IO, VDD_3V3_SYS_M2.
      // VDD_MUX is the carrier's input. DESIGN §4.1 and our fixture readings
      // (VDD_MUX 3.4 W against VDD_IN 1.9 W) take it to contain VDD_IN;
      // energymon's notes read the two as parallel branches of the supply.
      // NVIDIA does not say. Either way it is not module energy and is never
      // added to VDD_IN; an explicit [VDD_MUX, VDD_IN] is refused.
      {"Jetson TX2",
       {"quill", "p3310", "p2771", "p3489", "tx2"},
       {{"VDD_IN", Role::input},
        {"VDD_SYS_GPU", Role::inside},
        {"VDD_SYS_SOC", Role::inside},
        {"VDD_4V0_WIFI", Role::inside},
        {"VDD_SYS_CPU", Role::inside},
        {"VDD_SYS_DDR", Role::inside},
        {"VDD_MUX", Role::mux},
        {"VDD_5V0_IO_SYS", Role::carrier},
        {"VDD_5V_IO_SYS", Role::carrier},
        {"VDD_3V3_SYS", Role::carrier},
        {"VDD_3V3_IO_SLP", Role::carrier},
        {"VDD_1V8_IO", Role::carrier},
        {"VDD_3V3_SYS_M2", Role::carrier}},
       {"0042", "0043"}},
      // [DT234] power-sensor@40 of tegra234-p3767.dtsi, [JL36], [JTOP].
      {"Jetson Orin NX / Orin Nano",
       {"p3767", "p3768", "orin nx", "orin nano"},
       {{"VDD_IN", Role::input}, {"VDD_CPU_GPU_CV", Role::inside}, {"VDD_SOC", Role::inside}},
       {}},
      // [DT234] tegra234-p3701.dtsi: 0x40 VDD_GPU_SOC, VDD_CPU_CV, VIN_SYS_5V0;
      // 0x41 VDDQ_VDD2_1V8AO (its other channels are NC). No rail measures
      // the module input, so the total is the sum of the four, as [JTOP]
      // and tegrastats users do. Unverified: that VDDQ_VDD2_1V8AO is not fed
      // from VIN_SYS_5V0 (on the AGX Xavier, [F75574] puts DDR outside SYS5V;
      // NVIDIA says nothing of the kind for the Orin).
      {"Jetson AGX Orin",
       {"concord", "p3701", "p3737", "agx orin"},
       {{"VDD_GPU_SOC", Role::part},
        {"VDD_CPU_CV", Role::part},
        {"VIN_SYS_5V0", Role::part},
        {"VDDQ_VDD2_1V8AO", Role::part}},
       {}},
      // [L4T32] (the guide names them 5V_IN, VDD_CPU_GPU, VDD_SOC; the device
      // tree VDD_IN, VDD_CPU_GPU_CV, VDD_SOC), [JTOP].
      {"Jetson Xavier NX",
       {"jakku", "p3668", "p3509", "xavier nx"},
       {{"VDD_IN", Role::input},
        {"VDD_CPU_GPU_CV", Role::inside},
        {"VDD_CPU_GPU", Role::inside},
        {"VDD_SOC", Role::inside}},
       {}},
      // [L4T32], [XDG], [F75574]: 0x40 GPU, CPU, SOC; 0x41 CV, VDDRQ, SYS5V, six
      // parallel supplies and no module input monitor; the total is their sum,
      // as in [JTOP]. The JetPack 5 labels of this board are unverified.
      {"Jetson AGX Xavier",
       {"galen", "p2888", "p2972", "agx xavier", "jetson-agx"},
       {{"GPU", Role::part},
        {"CPU", Role::part},
        {"SOC", Role::part},
        {"CV", Role::part},
        {"VDDRQ", Role::part},
        {"SYS5V", Role::part}},
       {}},
      // [L4T32]: the device tree says POM_5V_IN, POM_5V_GPU, POM_5V_CPU; the
      // guide says VDD_IN, VDD_GPU, VDD_CPU. [JTOP] takes POM_5V_IN as the
      // total. The Nano 2GB has no INA3221.
      {"Jetson Nano",
       {"porg", "p3448", "p3450", "jetson nano"},
       {{"POM_5V_IN", Role::input},
        {"POM_5V_GPU", Role::inside},
        {"POM_5V_CPU", Role::inside},
        {"VDD_IN", Role::input},
        {"VDD_GPU", Role::inside},
        {"VDD_CPU", Role::inside}},
       {}},
  };
  return table;
}

// The rail names that are the module input on every board that has them
// ([JTOP] uses the same two).
const char* const kGenericInputs[] = {"VDD_IN", "POM_5V_IN"};

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string join(const std::vector<std::string>& v, const char* sep) {
  std::string out;
  for (const auto& s : v) out += (out.empty() ? "" : sep) + s;
  return out;
}

bool contains(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

const Board* find_board(const std::string& model) {
  const std::string m = lower(model);
  if (m.empty()) return nullptr;
  for (const auto& b : board_table())
    for (const char* p : b.patterns)
      if (m.find(p) != std::string::npos) return &b;
  return nullptr;
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
    if (name == k.name) return &k;
  return nullptr;
}

// The rail's role on `board`, or, when the board is unknown, on the first
// board of the table that names it (names mean the same on every board).
const KnownRail* known_role(const Board* board, const std::string& name) {
  if (board) return role_on(*board, name);
  for (const auto& b : board_table())
    if (const KnownRail* k = role_on(b, name)) return k;
  return nullptr;
}

bool is_input_name(const Board* board, const std::string& name) {
  const KnownRail* k = known_role(board, name);
  if (k) return k->role == Role::input;
  if (board) return false;
  for (const char* g : kGenericInputs)
    if (name == g) return true;
  return false;
}

bool has_parts(const Board& b) {
  for (const auto& k : b.rails)
    if (k.role == Role::part) return true;
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
};

using Rails = std::vector<const EnergyMeter::Rail*>;

std::string names_of(const Rails& rs) {
  std::vector<std::string> v;
  for (const auto* r : rs) v.push_back(r->info.rail);
  return join(v, ", ");
}

// A source with Jetson rail names: the jetson source itself, or a trace or
// hwmon whose rails carry the names of the board table.
Pick pick_jetson(const std::string& sensor, const Rails& rs, const Board* board,
                 const std::string& model) {
  Pick p;
  const std::string where = board
                                ? std::string(board->name)
                                : (model.empty() ? std::string("board unknown")
                                                 : "board '" + model + "', not in the board table");
  if (board && has_parts(*board)) {
    std::vector<std::string> missing;
    for (const auto& k : board->rails) {
      if (k.role != Role::part) continue;
      const auto it = std::find_if(rs.begin(), rs.end(), [&](const EnergyMeter::Rail* r) {
        return base_name(*r) == k.name;
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
    for (const auto* r : rs)
      if (!contains(p.chosen, r->info.rail))
        p.left_out.push_back({r->info.rail, std::string("not in the ") + board->name + " table"});
    return p;
  }

  const EnergyMeter::Rail* input = nullptr;
  if (board) {
    for (const auto& k : board->rails) {
      if (k.role != Role::input) continue;
      for (const auto* r : rs)
        if (!input && base_name(*r) == k.name) input = r;
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
  for (const auto* r : rs) {
    if (r == input) continue;
    const std::string name = base_name(*r);
    const KnownRail* k = known_role(board, name);
    std::string why;
    if (k && k->role == Role::inside) {
      why = "inside " + in;
    } else if (k && k->role == Role::mux) {
      why = "the carrier board's input, which contains " + in + ": never added to it";
    } else if (k && k->role == Role::carrier) {
      why = "carrier-board supplies, outside the module";
    } else if (board && !r->info.device.empty() &&
               std::any_of(board->carrier_addresses.begin(), board->carrier_addresses.end(),
                           [&](const char* a) { return address_of(r->info.device) == a; })) {
      why = "on the carrier board's monitor (" + r->info.device + "), outside the module";
    } else {
      why = std::string("not in the ") + (board ? board->name : "board") +
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

TotalRails choose_auto(const std::vector<EnergyMeter::Rail>& rails, const std::string& model) {
  const Board* board = find_board(model);
  std::vector<Pick> picks;
  for (const auto& [sensor, rs] : by_sensor(rails)) {
    bool jetson_names = sensor == "jetson";
    if (sensor == "trace" || sensor == "hwmon" || sensor == "ina226")
      for (const auto* r : rs) jetson_names |= is_input_name(board, base_name(*r));
    if (sensor == "rapl")
      picks.push_back(pick_rapl(rs));
    else if (sensor == "nvml")
      picks.push_back(pick_all(sensor, rs, "each GPU's own board power"));
    else if (jetson_names)
      picks.push_back(pick_jetson(sensor, rs, board, model));
    else if (sensor == "trace")
      picks.push_back(pick_all(sensor, rs, "a test source: its rails are taken to be independent"));
    else
      picks.push_back(pick_all(sensor, rs, "separate monitors, taken to be independent"));
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
                        const Board* board) {
  if (outer.sensor != inner.sensor) return "";
  const std::string o = base_name(outer), i = base_name(inner);
  if (outer.sensor == "rapl") {
    if (o == "psys") return inner.info.rail + " is inside psys, the whole platform";
    if (inner.info.parent == o) return inner.info.rail + " is inside " + outer.info.rail;
    return "";
  }
  // Jetson names: on the board, or on any board of the table that has both.
  for (const auto& b : board_table()) {
    if (board && &b != board) continue;
    const KnownRail* ko = role_on(b, o);
    const KnownRail* ki = role_on(b, i);
    if (!ko || !ki) continue;
    if (ko->role == Role::input && ki->role == Role::inside)
      return inner.info.rail + " is inside " + outer.info.rail + " (the module input on a " +
             b.name + ")";
    if (ko->role == Role::mux && (ki->role == Role::input || ki->role == Role::carrier))
      return inner.info.rail + " is inside " + outer.info.rail +
             " (the carrier board's input on a " + b.name + ")";
  }
  return "";
}

TotalRails check_requested(const std::vector<EnergyMeter::Rail>& rails, const std::string& model,
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

  const Board* board = find_board(model);
  std::vector<std::string> nested, drop;
  for (const auto* a : picked)
    for (const auto* b : picked) {
      if (a == b) continue;
      const std::string how = containment(*a, *b, board);
      if (how.empty()) continue;
      nested.push_back(how);
      // Keep the outer rail, except that a carrier board's input gives way
      // to the module input it contains: the module is what is measured.
      const KnownRail* k = known_role(board, base_name(*a));
      const bool carrier_input = a->sensor != "rapl" && k && k->role == Role::mux;
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
            (board ? std::string(" on a ") + board->name : std::string()) + ")";
  return out;
}

}  // namespace

TotalRails choose_total_rails(const std::vector<EnergyMeter::Rail>& rails,
                              const std::string& board_model,
                              const std::vector<std::string>& requested) {
  if (rails.empty()) {
    TotalRails none;
    none.why = "energy is not measured: no power source";
    if (!requested.empty())
      none.why += " (power.total_rails [" + join(requested, ", ") + "] is not used)";
    return none;
  }
  if (!requested.empty()) return check_requested(rails, board_model, requested);
  return choose_auto(rails, board_model);
}

}  // namespace edp::power
