// The board table. Sources (cited per entry by their key):
//  [EM]    energymon, jetson/JetsonPowerRails.md (github.com/energymon/
//          energymon): the INA3221 channels per board from the L4T R32.6.1
//          Developer Guide ("Clock Frequency and Power Management") and the
//          L4T 32.6.1 device trees, the L4T family names (quill, lanai, porg,
//          jakku, galen), and for the AGX Orin the NVIDIA forum thread
//          "Jetson AGX Orin INA3221 power monitor layout"
//          (forums.developer.nvidia.com/t/223111): SYS_VIN_HV feeds CPU, GPU,
//          SOC and CV, SYS_VIN_MV feeds VIN_SYS_5V0, and VIN_SYS_5V0 in turn
//          feeds VDDQ_VDD2_1V8AO; 0x41 channels 1 and 3 are NC.
//  [JL35]  NVIDIA Jetson Linux R35/R36 Developer Guide, "Platform Power and
//          Performance", Orin NX / Orin Nano / AGX Orin power monitoring, and
//          the nvpmodel conf names (/etc/nvpmodel/nvpmodel_p3701_0000.conf...).
//  [L4T32] NVIDIA L4T R32 Developer Guide, "Power Management": nvpmodel
//          conf names (nvpmodel_t186.conf, nvpmodel_t194.conf, ...).
//  [DT]    Linux arch/arm64/boot/dts/nvidia/: the model and compatible strings
//          of the devkit device trees (tegra186-p2771-0000.dts "NVIDIA Jetson
//          TX2 Developer Kit", tegra194-p2972-0000.dts "NVIDIA Jetson AGX
//          Xavier Developer Kit", tegra234-p3737-0000+p3701-0000.dts "NVIDIA
//          Jetson AGX Orin Developer Kit", tegra234-p3768-0000+p3767-0005.dts
//          "NVIDIA Jetson Orin Nano Developer Kit", ...).
//  [JTOP]  jetson_stats, jtop/core/power.py (github.com/rbonghi/jetson_stats):
//          VDD_IN or POM_5V_IN is the total, else the sum of every rail; NC
//          labels and in7 ("sum of shunt voltages") are skipped; pull request
//          #900 (2026): the carrier INA238's VIN is the total on an AGX Thor.
//  [XDG]   Jetson AGX Xavier Series Product Design Guide DG-09840-001 §5.2,
//          §5.6.2: the monitors see VDD_GPU, VDD_CPU, VDD_SOC, VDD_CV,
//          VDD_DDRQ and SYS_VIN_MV, all fed from the main source in parallel.
//  [I21]   edpbench issue 21 (user reports): an AGX Xavier on L4T R32.1
//          reports the model "jetson-xavier", from R32.2 "Jetson-AGX"; its CV
//          rail reads 0 mW with the DLA and PVA idle (tegrastats "CV 0mW/0mW").
//  [FX]    our own fixtures from real boards: tests/fixtures/platform/tx2
//          ("quill"); public jetson_release output of a TX2 NX ("lanai-3636").
// Peaks: the data sheets named in each GpuFacts row.
// Unverified (said so in docs/boards.md): the JetPack 5 labels of the AGX
// Xavier (taken equal to R32's), the AGX Thor's module rails and INA238 label
// (the hwmon `label` "VIN" of [JTOP] #900), and the Thor nvpmodel conf name.
#include "platform/boards.h"

#include <algorithm>
#include <stdexcept>

#include "common/text.h"
#include "platform/cpu_list.h"

namespace edp::platform {
namespace {

using R = RailRole;

}  // namespace

const char* rail_role_name(RailRole r) {
  switch (r) {
    case R::input:
      return "input";
    case R::inside:
      return "inside";
    case R::mux:
      return "mux";
    case R::carrier:
      return "carrier";
    case R::parallel:
      return "parallel";
    case R::fed_by:
      return "fed_by";
  }
  return "?";
}

// Most specific first: a model string is matched against each entry's
// patterns in this order ("tx2 nx" before "tx2", "orin nano" before "orin").
const std::vector<BoardEntry>& board_table() {
  static const std::vector<BoardEntry> table = {
      {"Jetson TX2 NX",
       "tegra186",
       {"lanai", "tx2 nx"},  // [FX] "lanai-3636"; [DT] "NVIDIA Jetson TX2 NX Developer Kit"
       {"nvidia,p3636-0001", "nvidia,p3509-0000+p3636-0001", "nvidia,lanai"},
       // [EM]: one INA3221 at 0x40 on the module.
       {{"VDD_IN", R::input}, {"VDD_CPU_GPU", R::inside}, {"VDD_SOC", R::inside}},
       {},
       {{"a57", "0,3-5"}, {"denver", "1-2"}},
       {{"", 256, 1300.5e6, 128, 1866, "Jetson TX2 NX data sheet DS-10071"}},
       "nvpmodel_t186_p3636.conf",
       "VDD_IN: the module input (5 V)",
       "[EM] [DT] [FX] [L4T32]"},
      {"Jetson TX2",  // TX2, TX2i and TX2 4GB share the quill device trees
       "tegra186",
       {"quill", "jetson tx2", "jetson-tx2"},  // [FX] "quill" (R32); [DT]
       {"nvidia,p2771-0000", "nvidia,p3310-1000", "nvidia,p3489-0000", "nvidia,p3489-0888",
        "nvidia,quill"},
       // [EM]: module 0x40 VDD_SYS_GPU, VDD_SYS_SOC, VDD_4V0_WIFI (absent on
       // the TX2i); 0x41 VDD_IN, VDD_SYS_CPU, VDD_SYS_DDR. Carrier P2597:
       // 0x42 VDD_MUX, VDD_5V0_IO_SYS (the guide: VDD_5V_IO_SYS), VDD_3V3_SYS;
       // 0x43 VDD_3V3_IO_SLP, VDD_1V8_IO, VDD_3V3_SYS_M2. Sources disagree on
       // VDD_MUX: DESIGN §4.1 and our fixture readings (VDD_MUX 3.4 W against
       // VDD_IN 1.9 W) take it to contain VDD_IN; [EM] reads the two as
       // parallel branches. Either way it is not module energy and is never
       // added to VDD_IN.
       {{"VDD_IN", R::input},
        {"VDD_SYS_GPU", R::inside},
        {"VDD_SYS_SOC", R::inside},
        {"VDD_4V0_WIFI", R::inside},
        {"VDD_SYS_CPU", R::inside},
        {"VDD_SYS_DDR", R::inside},
        {"VDD_MUX", R::mux},
        {"VDD_5V0_IO_SYS", R::carrier},
        {"VDD_5V_IO_SYS", R::carrier},
        {"VDD_3V3_SYS", R::carrier},
        {"VDD_3V3_IO_SLP", R::carrier},
        {"VDD_1V8_IO", R::carrier},
        {"VDD_3V3_SYS_M2", R::carrier}},
       {"0042", "0043"},
       // CPU0 and CPU3-5 are the Cortex-A57 cluster, CPU1-2 the Denver2 (TX2
       // data sheet DS-08392; our fixture's /proc/cpuinfo).
       {{"a57", "0,3-5"}, {"denver", "1-2"}},
       // Jetson TX2 Data Sheet DS-08392 (v1.1): 256-core Pascal up to 1.30
       // GHz; 128-bit LPDDR4 at 1866 MHz, 59.7 GB/s.
       {{"", 256, 1300.5e6, 128, 1866, "Jetson TX2 data sheet DS-08392"}},
       "nvpmodel_t186.conf",
       "VDD_IN: the module input (the carrier's VDD_MUX is left out)",
       "[EM] [DT] [FX] [L4T32] [JTOP]",
       // The POWER_MODEL headers of L4T R32's nvpmodel_t186.conf.
       {{0, "MAXN"},
        {1, "MAXQ"},
        {2, "MAXP_CORE_ALL"},
        {3, "MAXP_CORE_ARM"},
        {4, "MAXP_CORE_DENVER"}},
       "sources disagree on VDD_MUX: DESIGN 4.1 and our readings have it contain VDD_IN, "
       "energymon reads the two as parallel branches; it is not module energy either way"},
      {"Jetson Nano",
       "tegra210",
       {"jetson nano", "porg"},  // [DT] "NVIDIA Jetson Nano Developer Kit"
       {"nvidia,p3450-0000", "nvidia,p3448-0000", "nvidia,p3448-0002", "nvidia,porg",
        "nvidia,jetson-nano"},
       // [EM]: the device tree says POM_5V_IN, POM_5V_GPU, POM_5V_CPU; the
       // guide VDD_IN, VDD_GPU, VDD_CPU. [JTOP] takes POM_5V_IN as the total.
       // The Nano 2GB has no INA3221.
       {{"POM_5V_IN", R::input},
        {"POM_5V_GPU", R::inside},
        {"POM_5V_CPU", R::inside},
        {"VDD_IN", R::input},
        {"VDD_GPU", R::inside},
        {"VDD_CPU", R::inside}},
       {},
       {{"a57", "0-3"}},
       // Jetson Nano Data Sheet DA-09366: 128-core Maxwell at 921 MHz; 64-bit
       // LPDDR4 at 1600 MHz, 25.6 GB/s.
       {{"", 128, 921.6e6, 64, 1600, "Jetson Nano data sheet DA-09366"}},
       "nvpmodel_t210_jetson-nano.conf",
       "POM_5V_IN: the module input (5 V)",
       "[EM] [DT] [L4T32] [JTOP]"},
      {"Jetson TX1",
       "tegra210",
       {"jetson tx1", "jetson_tx1"},  // [DT] "NVIDIA Jetson TX1 Developer Kit"
       {"nvidia,p2371-2180", "nvidia,p2180"},
       // [EM]: 0x40 VDD_IN, VDD_GPU, VDD_CPU; carrier 0x42 VDD_MUX,
       // VDD_5V_IO_SYS, VDD_3V3_SYS; 0x43 VDD_3V3_IO, VDD_1V8_IO, VDD_M2_IN.
       {{"VDD_IN", R::input},
        {"VDD_GPU", R::inside},
        {"VDD_CPU", R::inside},
        {"VDD_MUX", R::mux},
        {"VDD_5V_IO_SYS", R::carrier},
        {"VDD_3V3_SYS", R::carrier},
        {"VDD_3V3_IO", R::carrier},
        {"VDD_1V8_IO", R::carrier},
        {"VDD_M2_IN", R::carrier}},
       {"0042", "0043"},
       {{"a57", "0-3"}},
       // Jetson TX1 Data Sheet DA-08118: 256-core Maxwell at 998 MHz; 64-bit
       // LPDDR4 at 1600 MHz, 25.6 GB/s.
       {{"", 256, 998.4e6, 64, 1600, "Jetson TX1 data sheet DA-08118"}},
       "nvpmodel_t210.conf",
       "VDD_IN: the module input",
       "[EM] [DT]"},
      {"Jetson Xavier NX",
       "tegra194",
       {"xavier nx", "jakku"},  // [DT] "NVIDIA Jetson Xavier NX Developer Kit"
       {"nvidia,p3668-0000", "nvidia,p3668-0001", "nvidia,p3509-0000+p3668-0000",
        "nvidia,p3509-0000+p3668-0001", "nvidia,jakku"},
       // [EM]: 0x40 VDD_IN, VDD_CPU_GPU_CV, VDD_SOC (the guide: 5V_IN,
       // VDD_CPU_GPU, VDD_SOC).
       {{"VDD_IN", R::input},
        {"VDD_CPU_GPU_CV", R::inside},
        {"VDD_CPU_GPU", R::inside},
        {"VDD_SOC", R::inside}},
       {},
       {{"carmel", "0-5"}},
       // Jetson Xavier NX Data Sheet DS-09693: 384-core Volta at 1100 MHz;
       // 128-bit LPDDR4x at 1866 MHz, 59.7 GB/s.
       {{"", 384, 1100e6, 128, 1866, "Jetson Xavier NX data sheet DS-09693"}},
       "nvpmodel_t194_p3668.conf",
       "VDD_IN: the module input (5 V)",
       "[EM] [DT] [L4T32] [JTOP]"},
      {"Jetson Orin Nano",
       "tegra234",
       {"orin nano"},  // [DT] "NVIDIA Jetson Orin Nano Developer Kit"
       {"nvidia,p3767-0003", "nvidia,p3767-0004", "nvidia,p3767-0005",
        "nvidia,p3768-0000+p3767-0003", "nvidia,p3768-0000+p3767-0004",
        "nvidia,p3768-0000+p3767-0005"},
       // [JL35], Linux tegra234-p3767.dtsi power-sensor@40: VDD_IN,
       // VDD_CPU_GPU_CV, VDD_SOC.
       {{"VDD_IN", R::input}, {"VDD_CPU_GPU_CV", R::inside}, {"VDD_SOC", R::inside}},
       {},
       {{"a78ae", "0-5"}},
       // Jetson Orin Nano Series Data Sheet DS-11105: 8GB: 1024-core Ampere
       // at 625 MHz, 128-bit LPDDR5 at 2133 MHz (68 GB/s); 4GB: 512, 64-bit.
       {{"4gb", 512, 625e6, 64, 2133, "Jetson Orin Nano data sheet DS-11105"},
        {"", 1024, 625e6, 128, 2133, "Jetson Orin Nano data sheet DS-11105"}},
       "nvpmodel_p3767_0003.conf",
       "VDD_IN: the module input",
       "[JL35] [DT] [JTOP]"},
      {"Jetson Orin NX",
       "tegra234",
       {"orin nx"},
       {"nvidia,p3767-0000", "nvidia,p3767-0001", "nvidia,p3768-0000+p3767-0000",
        "nvidia,p3768-0000+p3767-0001", "nvidia,p3509-0000+p3767-0000"},
       {{"VDD_IN", R::input}, {"VDD_CPU_GPU_CV", R::inside}, {"VDD_SOC", R::inside}},
       {},
       {{"a78ae", "0-7"}},
       // Jetson Orin NX Series Data Sheet DS-10712: 16GB: 1024 cores at 918
       // MHz (8GB: 765 MHz); 128-bit LPDDR5 at 3200 MHz, 102.4 GB/s.
       {{"8gb", 1024, 765e6, 128, 3200, "Jetson Orin NX data sheet DS-10712"},
        {"", 1024, 918e6, 128, 3200, "Jetson Orin NX data sheet DS-10712"}},
       "nvpmodel_p3767_0000.conf",
       "VDD_IN: the module input",
       "[JL35] [DT] [JTOP]"},
      {"Jetson AGX Orin",
       "tegra234",
       {"agx orin", "concord"},  // [DT] "NVIDIA Jetson AGX Orin Developer Kit"
       {"nvidia,p3701-0000", "nvidia,p3701-0004", "nvidia,p3701-0005",
        "nvidia,p3737-0000+p3701-0000", "nvidia,p3737-0000+p3701-0004",
        "nvidia,p3737-0000+p3701-0005"},
       // [EM] (forum t/223111, an NVIDIA answer), [JL35]: 0x40 VDD_GPU_SOC,
       // VDD_CPU_CV, VIN_SYS_5V0; 0x41 NC, VDDQ_VDD2_1V8AO, NC. No rail
       // measures the module input. VIN_SYS_5V0 feeds VDDQ_VDD2_1V8AO, so the
       // total is VDD_GPU_SOC + VDD_CPU_CV + VIN_SYS_5V0. The sources
       // disagree: [JTOP] and tegrastats users sum all four rails (+4% at
       // idle); the NVIDIA answer is the best cited and is followed.
       {{"VDD_GPU_SOC", R::parallel},
        {"VDD_CPU_CV", R::parallel},
        {"VIN_SYS_5V0", R::parallel},
        {"VDDQ_VDD2_1V8AO", R::fed_by, "VIN_SYS_5V0"}},
       {},
       {{"a78ae", "0-11"}},
       // Jetson AGX Orin Series Data Sheet DS-10662: 64GB: 2048 cores at 1.3
       // GHz; 32GB: 1792 cores at 930 MHz; 256-bit LPDDR5 at 3200 MHz.
       {{"32gb", 1792, 930e6, 256, 3200, "Jetson AGX Orin data sheet DS-10662"},
        {"", 2048, 1300e6, 256, 3200, "Jetson AGX Orin data sheet DS-10662"}},
       "nvpmodel_p3701_0000.conf",
       "VDD_GPU_SOC + VDD_CPU_CV + VIN_SYS_5V0 (VDDQ_VDD2_1V8AO is inside VIN_SYS_5V0)",
       "[EM] [JL35] [DT]",
       {},
       "sources disagree: NVIDIA's forum answer (t/223111, via energymon) has VIN_SYS_5V0 feed "
       "VDDQ_VDD2_1V8AO; jtop and tegrastats users sum all four rails. The NVIDIA answer is "
       "followed"},
      {"Jetson AGX Xavier",
       "tegra194",
       // [I21]: "jetson-xavier" on L4T R32.1, "Jetson-AGX" from R32.2; [DT]
       // "NVIDIA Jetson AGX Xavier Developer Kit".
       {"jetson-agx", "jetson-xavier", "agx xavier", "galen"},
       {"nvidia,p2972-0000", "nvidia,p2888-0001", "nvidia,p2888-0004", "nvidia,p2888-0006",
        "nvidia,galen", "nvidia,jetson-xavier"},
       // [EM], [XDG]: 0x40 GPU, CPU, SOC; 0x41 CV, VDDRQ, SYS5V: six parallel
       // supplies and no module input monitor; the total is their sum, as in
       // [JTOP]. CV reads 0 mW while the DLA and PVA idle [I21].
       {{"GPU", R::parallel},
        {"CPU", R::parallel},
        {"SOC", R::parallel},
        {"CV", R::parallel},
        {"VDDRQ", R::parallel},
        {"SYS5V", R::parallel}},
       {},
       {{"carmel", "0-7"}},
       // Jetson AGX Xavier Data Sheet DS-09654: 512-core Volta at 1377 MHz;
       // 256-bit LPDDR4x at 2133 MHz, 136.5 GB/s.
       {{"", 512, 1377e6, 256, 2133, "Jetson AGX Xavier data sheet DS-09654"}},
       "nvpmodel_t194.conf",
       "GPU + CPU + SOC + CV + VDDRQ + SYS5V, the six parallel supplies",
       "[EM] [XDG] [DT] [I21] [L4T32] [JTOP]"},
      {"Jetson AGX Thor",
       "tegra264",
       {"agx thor", "jetson thor"},
       {"nvidia,p3834-0008", "nvidia,p3971-0000+p3834-0008", "nvidia,tegra264"},
       // [JTOP] #900: the carrier board's INA238 measures the input (VIN);
       // jtop reports it as the total. The module's own rails are not in
       // the table (unverified names): they are left out as inside VIN.
       {{"VIN", R::input}, {"ina238*", R::input}},
       {},
       // Jetson AGX Thor: 14 Arm Neoverse-V3AE cores (NVIDIA product page).
       {{"neoverse-v3ae", "0-13"}},
       // Jetson AGX Thor (T5000) product page: 2560-core Blackwell GPU up to
       // 1.575 GHz; 256-bit LPDDR5X, 273 GB/s (4266 MHz).
       {{"", 2560, 1575e6, 256, 4266, "Jetson AGX Thor product page (T5000)"}},
       "",
       "VIN: the carrier's INA238 on the input, as jtop reads it",
       "[JTOP] (unverified labels)"},
  };
  return table;
}

BoardMatch identify_board(const std::string& model, const std::string& compatible,
                          const std::string& soc) {
  BoardMatch m;
  const std::string lm = ascii_lower(model);
  if (!lm.empty())
    for (const auto& b : board_table())
      for (const char* p : b.models)
        if (lm.find(p) != std::string::npos) {
          m.board = &b;
          m.by = "model";
          m.why = std::string(b.name) + ": the device-tree model '" + model + "' contains '" + p +
                  "' (board table)";
          return m;
        }
  // Compatible entries, most specific first as the device tree lists them;
  // NUL-separated as the kernel writes them, or space-separated as
  // Platform::compatible keeps them (no entry contains a space).
  std::vector<std::string> entries;
  std::string cur;
  for (char c : compatible + std::string(1, '\0')) {
    if (c == '\0' || c == ' ' || c == '\n') {
      if (!cur.empty()) entries.push_back(ascii_lower(cur));
      cur.clear();
    } else {
      cur.push_back(c);
    }
  }
  for (const auto& e : entries)
    for (const auto& b : board_table())
      for (const char* c : b.compatibles)
        if (e == c) {
          m.board = &b;
          m.by = "compatible";
          m.why = std::string(b.name) + ": the device-tree compatible '" + e + "' (board table)";
          return m;
        }
  // By SoC alone: the last entry of that SoC, the family's base board (TX2,
  // TX1, AGX Xavier, AGX Orin), as the peaks table chose before.
  const BoardEntry* by_soc = nullptr;
  if (!soc.empty())
    for (const auto& b : board_table())
      if (soc == b.soc) by_soc = &b;
  if (by_soc) {
    m.board = by_soc;
    m.by = "soc";
    m.why = std::string(by_soc->name) + "?: only the SoC (" + soc +
            ") is known; peaks are taken from this entry, rails from the generic rule";
    return m;
  }
  m.why = model.empty() ? "board unknown (no device-tree model)"
                        : "board '" + model + "' is not in the board table";
  return m;
}

std::vector<std::string> cpu_cluster_names() {
  std::vector<std::string> names;
  auto add = [&](const std::string& n) {
    if (std::find(names.begin(), names.end(), n) == names.end()) names.push_back(n);
  };
  for (const auto& b : board_table())
    for (const auto& c : b.clusters) add(c.name);
  // Other cores a config may reasonably name (cpu_topology.cpp's core table).
  for (const char* n : {"a53", "a55", "a72", "a76", "x86"}) add(n);
  return names;
}

std::string known_cluster(const std::string& soc, int id) {
  std::string found;
  for (const auto& b : board_table()) {
    if (soc != b.soc) continue;
    for (const auto& c : b.clusters) {
      std::vector<int> ids;
      try {
        ids = parse_cpu_list(c.cpus);
      } catch (const std::invalid_argument&) {
        continue;
      }
      if (std::find(ids.begin(), ids.end(), id) == ids.end()) continue;
      if (!found.empty() && found != c.name) return "";  // boards of the SoC disagree
      found = c.name;
    }
  }
  return found;
}

}  // namespace edp::platform
