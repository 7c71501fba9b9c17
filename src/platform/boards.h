// The board table (DESIGN §1, §4.1): every fact edpbench knows about a
// Jetson board, in one place, each with its source in boards.cpp. The power
// rails and their roles, the CPU clusters, the GPU and memory peaks and the
// nvpmodel conf file name are all read from here; adding a board is one entry
// (and one fixture under tests/fixtures/boards/).
//
// `power` does not depend on `platform`: bench hands the rail roles of the
// identified board to power::choose_total_rails as plain data
// (bench/engine/board_rails.h).
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace edp::platform {

// Where a rail sits in a board's power tree.
enum class RailRole {
  input,     // the module's input: every other module rail is inside it
  inside,    // a module rail inside the input
  mux,       // the carrier board's input: contains the module input and the carrier rails
  carrier,   // a carrier-board supply beside the module (inside the mux)
  parallel,  // no rail measures the input: one of the parallel supplies whose sum is the total
  fed_by,    // a rail supplied by another rail of the table (`parent`): never added to it
};
const char* rail_role_name(RailRole r);  // "input", "inside", ...

struct BoardRail {
  const char* name;  // the label the driver reports; a trailing '*' matches a prefix
  RailRole role;
  const char* parent = "";  // fed_by: the rail that supplies this one
};

struct CpuCluster {
  const char* name;  // the cluster name of cpu_topology.h ("a57", "carmel", ...)
  const char* cpus;  // the CPU ids, as a cpu list ("0,3-5")
};

// One memory/GPU variant of a board (the 4GB and 8GB Orin Nano differ).
struct GpuFacts {
  const char* model_match;  // substring of the device-tree model; "" = any
  int gpu_cores;            // CUDA cores
  double gpu_max_hz;        // nominal GPU clock when devfreq gives none
  double bus_bits;          // DRAM bus width
  double dram_mhz;          // DRAM I/O clock; bytes/s = bits / 8 x MHz x 2 (DDR)
  const char* source;
};

struct BoardEntry {
  const char* name;  // "Jetson AGX Orin"
  const char* soc;   // "tegra234"
  // Lower-case substrings of /proc/device-tree/model by which L4T releases
  // report the board, and device-tree compatible entries (exact, lower case).
  std::vector<const char*> models;
  std::vector<const char*> compatibles;
  std::vector<BoardRail> rails;
  // I2C devices ("0042" of "0-0042") of the carrier board's INA3221s.
  std::vector<const char*> carrier_addresses;
  std::vector<CpuCluster> clusters;  // the largest variant (offline CPUs included)
  std::vector<GpuFacts> gpu;         // first matching variant wins
  const char* nvpmodel_conf;         // file name under /etc/nvpmodel/ or /etc/; "" unknown
  const char* energy;                // what "energy" means on this board (README, probe)
  const char* sources;               // the cited sources, short keys explained in boards.cpp
  // The nvpmodel modes (id, name) for a board whose status file is readable
  // but whose conf is not; empty = none known.
  std::vector<std::pair<int, const char*>> nvpmodel_modes = {};
  // Where the sources disagree about the rails, and which one is followed:
  // goes with the total's `why` into context.json. "" = they agree.
  const char* rails_note = "";
};

const std::vector<BoardEntry>& board_table();

// The board a model string and compatible list name, and how it was told.
struct BoardMatch {
  const BoardEntry* board = nullptr;
  // How: "model", "compatible" or "soc" (a guess from the SoC alone: good
  // for peaks, not for rails, whose names differ between boards of a SoC).
  std::string by;
  std::string why;  // one line for probe, sensors and context.json
};
// `compatible`: the NUL- or comma-separated /proc/device-tree/compatible.
BoardMatch identify_board(const std::string& model, const std::string& compatible,
                          const std::string& soc);

// Every CPU cluster name the table and the core table know ("a57", "denver",
// "carmel", "a78ae", ...), for the config's `cpus:` (DESIGN §7).
std::vector<std::string> cpu_cluster_names();

// The cluster of CPU `id` on the boards of `soc` whose layouts agree; "" when
// unknown. For offline CPUs, whose MIDR the kernel no longer shows.
std::string known_cluster(const std::string& soc, int id);

}  // namespace edp::platform
