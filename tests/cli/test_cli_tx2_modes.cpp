// configs/tx2-modes.yaml: its operating points name the five TX2 modes and
// validate against the TX2 fixture's nvpmodel.conf and rate tables.
#include <yaml-cpp/yaml.h>
#include <catch2/catch.hpp>

#include <filesystem>

#include "platform/operating_point.h"
#include "support/process.h"

namespace fs = std::filesystem;

using namespace edp::platform;

TEST_CASE("configs/tx2-modes.yaml: the five TX2 modes validate against the TX2 fixture") {
  const YAML::Node cfg = YAML::LoadFile(EDPBENCH_CONFIGS "/tx2-modes.yaml");
  std::vector<OperatingPoint> points;
  for (const auto& n : cfg["operating_points"]) {
    OperatingPoint p;
    p.name = n["name"].as<std::string>();
    p.nvpmodel = n["nvpmodel"].as<int>();
    points.push_back(p);
  }
  REQUIRE(points.size() == 5);
  // The fixture has no EMC cap file, which an L4T R32 kernel has and every
  // mode's EMC line writes: a copy with one.
  const std::string dir = edp::testing::temp_dir("tx2-modes");
  fs::copy(EDPBENCH_FIXTURES "/platform/tx2", dir + "/root",
           fs::copy_options::recursive | fs::copy_options::copy_symlinks);
  fs::create_directories(dir + "/root/sys/kernel/nvpmodel_emc_cap");
  edp::testing::write_text(dir + "/root/sys/kernel/nvpmodel_emc_cap/emc_iso_cap", "0\n");
  const auto resolved = validate_points(probe(dir + "/root"), points);
  for (const auto& r : resolved) CHECK(r.nvpmodel_name == r.point.name);
  fs::remove_all(dir);
}
