// The board table (platform/boards.h): every board is told by the strings
// its L4T releases report, the table is complete per entry, and the facts
// other parts read (clusters, offline layouts, peaks) come from it.
#include <catch2/catch.hpp>

#include <stdlib.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

#include "common/errors.h"
#include "platform/boards.h"
#include "platform/cpu_list.h"
#include "platform/peaks.h"
#include "platform/platform.h"

using namespace edp::platform;
using Catch::Contains;

namespace {

std::string board_of(const std::string& model, const std::string& compatible = "",
                     const std::string& soc = "") {
  const BoardMatch m = identify_board(model, compatible, soc);
  return m.board ? m.board->name : "";
}

bool has(const std::vector<std::string>& v, const std::string& s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

// A platform with `n` online CPUs of one cluster.
Platform machine(const std::string& soc, const std::string& model, const std::string& cluster,
                 int n) {
  Platform p;
  p.soc = soc;
  p.model = model;
  for (int i = 0; i < n; ++i) {
    CpuInfo c;
    c.id = i;
    c.online = true;
    c.cluster = cluster;
    p.cpus.push_back(c);
  }
  return p;
}

}  // namespace

TEST_CASE("boards: every L4T release's model string names its board", "[boards]") {
  CHECK(board_of("quill") == "Jetson TX2");  // L4T R32 TX2 (our platform fixture)
  CHECK(board_of("NVIDIA Jetson TX2 Developer Kit") == "Jetson TX2");
  CHECK(board_of("lanai-3636") == "Jetson TX2 NX");
  CHECK(board_of("NVIDIA Jetson TX2 NX Developer Kit") == "Jetson TX2 NX");
  CHECK(board_of("NVIDIA Jetson Nano Developer Kit") == "Jetson Nano");
  CHECK(board_of("NVIDIA Jetson Xavier NX Developer Kit") == "Jetson Xavier NX");
  // Issue 21, defect 3: R32.1 says "jetson-xavier", R32.2 on "Jetson-AGX".
  CHECK(board_of("jetson-xavier") == "Jetson AGX Xavier");
  CHECK(board_of("Jetson-AGX") == "Jetson AGX Xavier");
  CHECK(board_of("NVIDIA Jetson AGX Xavier Developer Kit") == "Jetson AGX Xavier");
  CHECK(board_of("NVIDIA Jetson Orin Nano Developer Kit") == "Jetson Orin Nano");
  CHECK(board_of("NVIDIA Orin NX Developer Kit") == "Jetson Orin NX");
  CHECK(board_of("NVIDIA Jetson AGX Orin Developer Kit") == "Jetson AGX Orin");
  CHECK(board_of("Jetson AGX Orin") == "Jetson AGX Orin");
  CHECK(board_of("NVIDIA Jetson AGX Thor Developer Kit") == "Jetson AGX Thor");
  CHECK(board_of("OptiPlex 7070").empty());
  CHECK(identify_board("OptiPlex 7070", "", "").why ==
        "board 'OptiPlex 7070' is not in the board table");
}

TEST_CASE("boards: the compatible list tells a board whose model is not in the table", "[boards]") {
  const std::string nul_separated =
      std::string("nvidia,p3737-0000+p3701-0000\0nvidia,p3701-0000\0nvidia,tegra234\0", 63);
  const BoardMatch m = identify_board("custom carrier", nul_separated, "tegra234");
  REQUIRE(m.board);
  CHECK(std::string(m.board->name) == "Jetson AGX Orin");
  CHECK(m.by == "compatible");
  CHECK(board_of("", "nvidia,p3767-0004 nvidia,tegra234") == "Jetson Orin Nano");
  CHECK(board_of("", "nvidia,p3767-0001 nvidia,tegra234") == "Jetson Orin NX");
  // By SoC alone: a guess, said to be one (used for peaks, never for rails).
  const BoardMatch s = identify_board("custom", "nvidia,tegra194", "tegra194");
  REQUIRE(s.board);
  CHECK(s.by == "soc");
  CHECK_THAT(s.why, Contains("only the SoC (tegra194) is known"));
}

TEST_CASE("boards: every entry is complete and its rail roles are consistent", "[boards]") {
  for (const auto& b : board_table()) {
    INFO(b.name);
    CHECK(std::strlen(b.sources) > 0);
    CHECK(std::strlen(b.energy) > 0);
    CHECK_FALSE(b.models.empty());
    CHECK_FALSE(b.compatibles.empty());
    CHECK_FALSE(b.clusters.empty());
    CHECK_FALSE(b.gpu.empty());
    int inputs = 0, parallel = 0;
    for (const auto& r : b.rails) {
      inputs += r.role == RailRole::input;
      parallel += r.role == RailRole::parallel;
      if (r.role == RailRole::fed_by) {
        // The parent is a rail of the same board.
        CHECK(std::any_of(b.rails.begin(), b.rails.end(),
                          [&](const BoardRail& o) { return std::strcmp(o.name, r.parent) == 0; }));
      }
    }
    // Either an input monitor or parallel supplies, not both.
    CHECK((inputs > 0) != (parallel > 0));
    for (const auto& c : b.clusters) CHECK_NOTHROW(parse_cpu_list(c.cpus));
    // The last GPU variant is the catch-all.
    CHECK(std::strlen(b.gpu.back().model_match) == 0);
  }
}

TEST_CASE("boards: cluster names for cpus: come from the table", "[boards]") {
  const auto names = cpu_cluster_names();
  for (const char* n : {"a57", "denver", "carmel", "a78ae", "neoverse-v3ae"}) CHECK(has(names, n));
  // Offline CPUs take the SoC's layout: TX2 CPU1 is Denver, CPU3 an A57.
  CHECK(known_cluster("tegra186", 1) == "denver");
  CHECK(known_cluster("tegra186", 3) == "a57");
  CHECK(known_cluster("tegra194", 7) == "carmel");
  CHECK(known_cluster("tegra234", 11) == "a78ae");
  CHECK(known_cluster("tegra186", 9).empty());
  CHECK(known_cluster("x86", 0).empty());
}

TEST_CASE("boards: carmel and a78ae resolve on Xavier and Orin, and are 'none here' elsewhere",
          "[boards]") {
  // Issue 21, defect 4 (the platform side): Xavier's and Orin's CPUs by name.
  const Platform xavier = machine("tegra194", "Jetson-AGX", "carmel", 8);
  CHECK(resolve_cpu_set(xavier, "carmel") == parse_cpu_list("0-7"));
  const Platform orin = machine("tegra234", "NVIDIA Jetson AGX Orin Developer Kit", "a78ae", 12);
  CHECK(resolve_cpu_set(orin, "a78ae") == parse_cpu_list("0-11"));
  try {
    resolve_cpu_set(orin, "carmel");
    FAIL("carmel resolved on an Orin");
  } catch (const edp::UsageError& e) {
    CHECK_THAT(e.what(), Contains("this machine has no carmel cores"));
    CHECK_THAT(e.what(), Contains("a78ae (CPUs 0-11)"));
  }
}

TEST_CASE("boards: peaks come from the identified entry's variant", "[boards]") {
  Platform p;
  p.soc = "tegra234";
  p.model = "NVIDIA Jetson AGX Orin Developer Kit";
  CHECK(gpu_peak(p, {}).flops_nominal == Approx(2.0 * 2048 * 1.3e9));
  p.model = "Jetson AGX Orin 32GB";
  CHECK(gpu_peak(p, {}).flops_nominal == Approx(2.0 * 1792 * 930e6));
  p.model = "NVIDIA Jetson Orin Nano 4GB";
  CHECK(gpu_peak(p, {}).flops_nominal == Approx(2.0 * 512 * 625e6));
  p.soc = "tegra264";
  p.model = "NVIDIA Jetson AGX Thor Developer Kit";
  CHECK(board_bytes_per_s(p) == Approx(256 / 8.0 * 4266e6 * 2));
}

TEST_CASE("boards: JetPack 5's nvpmodel conf is found by the table's file name", "[boards]") {
  char tmpl[] = "/tmp/edp_boards_test_XXXXXX";
  const std::string root = mkdtemp(tmpl);
  auto put = [&](const std::string& rel, const std::string& text) {
    std::filesystem::create_directories(std::filesystem::path(root + rel).parent_path());
    std::ofstream(root + rel, std::ios::binary) << text;
  };
  put("/proc/device-tree/model", std::string("NVIDIA Jetson AGX Orin Developer Kit\0", 37));
  put("/var/lib/nvpmodel/status", "pmode:0003\n");
  // No /etc/nvpmodel.conf: L4T R35 keeps the modes in /etc/nvpmodel/.
  put("/etc/nvpmodel/nvpmodel_p3701_0000.conf",
      "< POWER_MODEL ID=0 NAME=MAXN >\n< POWER_MODEL ID=3 NAME=50W >\n");
  const Platform p = probe(root);
  CHECK(p.board == "Jetson AGX Orin");
  CHECK(p.is_jetson());
  CHECK(p.nvpmodel_id == 3);
  CHECK(p.nvpmodel_mode == "50W");
  CHECK_THAT(to_text(p), Contains("contains 'agx orin'"));
  CHECK_THAT(to_json(p), Contains("\"board\":{\"entry\":\"Jetson AGX Orin\",\"by\":\"model\""));
  std::filesystem::remove_all(root);
}
