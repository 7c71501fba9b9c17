// choose_total_rails (DESIGN §4.1): which rails make "energy" so that no
// joule is counted twice, on fake rail lists and on the fake sysfs trees of
// tests/fixtures/power (a TX2 with its carrier board's monitors, a JetPack 5
// Xavier NX, RAPL with and without psys).
#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

#include "bench/engine/board_rails.h"
#include "common/errors.h"
#include "platform/platform.h"
#include "power/energy_meter.h"
#include "power/total_rails.h"
#include "support/files.h"

using edp::testing::sleep_s;
using namespace edp::power;
using Catch::Contains;
using Names = std::vector<std::string>;

namespace {

const std::string kAllFixtures = EDPBENCH_FIXTURES;

// choose_total_rails with the board table's roles for a device-tree model,
// as bench wires them (bench/engine/board_rails.h).
TotalRails choose(const std::vector<EnergyMeter::Rail>& rails, const std::string& model,
                  const Names& requested) {
  return choose_total_rails(rails, edp::bench::rail_roles(model), requested);
}

EnergyMeter::Rail rail(const std::string& sensor, const std::string& name,
                       const std::string& parent = "", const std::string& device = "") {
  EnergyMeter::Rail r;
  r.sensor = sensor;
  r.info.rail = name;
  r.info.kind = sensor == "rapl" ? ValueKind::energy_j : ValueKind::power_w;
  r.info.parent = parent;
  r.info.device = device;
  return r;
}

// The TX2 module's two INA3221s and the P2597 carrier board's two, as the
// jetson source lists them.
std::vector<EnergyMeter::Rail> tx2_rails() {
  return {
      rail("jetson", "VDD_SYS_GPU", "", "0-0040"),  rail("jetson", "VDD_SYS_SOC", "", "0-0040"),
      rail("jetson", "VDD_4V0_WIFI", "", "0-0040"), rail("jetson", "VDD_IN", "", "0-0041"),
      rail("jetson", "VDD_SYS_CPU", "", "0-0041"),  rail("jetson", "VDD_SYS_DDR", "", "0-0041"),
      rail("jetson", "VDD_MUX", "", "0-0042"),      rail("jetson", "VDD_5V0_IO_SYS", "", "0-0042"),
      rail("jetson", "VDD_3V3_SYS", "", "0-0042"),  rail("jetson", "VDD_3V3_IO_SLP", "", "0-0043"),
      rail("jetson", "VDD_1V8_IO", "", "0-0043")};
}

std::vector<EnergyMeter::Rail> rapl_rails(bool psys) {
  std::vector<EnergyMeter::Rail> r = {rail("rapl", "package-0"),
                                      rail("rapl", "package-0/core", "package-0"),
                                      rail("rapl", "package-0/uncore", "package-0"),
                                      rail("rapl", "package-0/dram", "package-0"),
                                      rail("rapl", "package-1"),
                                      rail("rapl", "package-1/core", "package-1")};
  if (psys) r.push_back(rail("rapl", "psys"));
  return r;
}

// What the platform probe reads as the board model of the fake TX2:
// /proc/device-tree/model, NUL-terminated like the real file.
std::string tx2_fixture_model() {
  std::ifstream f(kAllFixtures + "/platform/tx2/proc/device-tree/model", std::ios::binary);
  std::string s((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  while (!s.empty() && (s.back() == '\0' || s.back() == '\n')) s.pop_back();
  return s;
}

std::string usage_error(const std::vector<EnergyMeter::Rail>& rails, const std::string& model,
                        const Names& requested) {
  try {
    choose(rails, model, requested);
  } catch (const edp::UsageError& e) {
    return e.what();
  }
  return "(no usage error)";
}

}  // namespace

TEST_CASE("auto on a TX2 takes VDD_IN alone, without its sub-rails or the carrier's VDD_MUX",
          "[total_rails]") {
  const TotalRails t = choose(tx2_rails(), "quill", {});
  CHECK(t.rails == Names{"VDD_IN"});
  CHECK_THAT(t.why, Contains("energy = VDD_IN"));
  CHECK_THAT(t.why, Contains("Jetson TX2"));
  CHECK_THAT(t.why,
             Contains("VDD_SYS_GPU, VDD_SYS_SOC, VDD_4V0_WIFI, VDD_SYS_CPU, VDD_SYS_DDR: inside "
                      "VDD_IN"));
  CHECK_THAT(t.why, Contains("VDD_MUX: the carrier board's input, which contains VDD_IN"));
  CHECK_THAT(t.why, Contains("VDD_5V0_IO_SYS, VDD_3V3_SYS, VDD_3V3_IO_SLP, VDD_1V8_IO: "
                             "carrier-board supplies"));
}

TEST_CASE("auto leaves out a rail the TX2 table does not know, saying where it was found",
          "[total_rails]") {
  auto rails = tx2_rails();
  rails.push_back(rail("jetson", "VDD_NEW_CARRIER", "", "0-0043"));
  rails.push_back(rail("jetson", "VDD_NEW_MODULE", "", "0-0040"));
  const TotalRails t = choose(rails, "quill", {});
  CHECK(t.rails == Names{"VDD_IN"});
  CHECK_THAT(t.why, Contains("VDD_NEW_CARRIER: on the carrier board's monitor (0-0043)"));
  CHECK_THAT(t.why, Contains("VDD_NEW_MODULE: not in the Jetson TX2 table"));
}

TEST_CASE(
    "the fake TX2 tree through EnergyMeter::open gives VDD_IN, not the 4.4 times larger rail sum",
    "[total_rails]") {
  const std::string model = tx2_fixture_model();
  REQUIRE(model == "quill");
  PowerOptions o;
  o.source = "jetson";
  o.sysfs_root = kAllFixtures + "/power/tx2-jp4";
  auto meter = EnergyMeter::open(o);
  const TotalRails t = choose(meter.rails(), model, {});
  REQUIRE(t.rails == Names{"VDD_IN"});
  CHECK_THAT(t.why, Contains("left out VDD_MUX"));
  meter.begin_window("run");
  sleep_s(0.1);
  const Measurement m = meter.end_window("run");
  REQUIRE(m.complete);
  const double total = m.energy_j(t.rails);
  CHECK(total == Approx(1.929 * m.time_s()).epsilon(1e-9));  // VDD_IN: 1929 mW
  // Summing every rail, as before, would report 8.515 W: 4.4 times too much.
  CHECK(m.energy_j(meter.rail_names()) / total == Approx(8.515 / 1.929).epsilon(1e-6));
}

TEST_CASE("the fake JetPack 5 Orin NX tree gives VDD_IN, told by its device tree",
          "[total_rails]") {
  PowerOptions o;
  o.source = "jetson";
  o.sysfs_root = kAllFixtures + "/power/jp5-hwmon";
  auto meter = EnergyMeter::open(o);
  const auto roles = edp::bench::rail_roles(edp::platform::probe(o.sysfs_root));
  const TotalRails t = choose_total_rails(meter.rails(), roles, {});
  CHECK(t.rails == Names{"VDD_IN"});
  CHECK_THAT(t.why, Contains("Jetson Orin NX"));
  CHECK_THAT(t.why, Contains("VDD_CPU_GPU_CV, VDD_SOC: inside VDD_IN"));
}

// Each board family's tree, from its own device tree to its total, with the
// power the rails read (the fixtures' files) against the known total.
TEST_CASE("board fixtures: the board, the total and its power", "[total_rails][boards]") {
  struct Case {
    const char* fixture;
    const char* source;
    const char* board;
    Names total;
    double total_w;  // from the fixture's files, by hand
  };
  const Case cases[] = {
      // 19.064 V x 0.208 A + 19.064 x 0.056 + 4.984 x 0.568; VDDQ_VDD2_1V8AO's
      // 0.399 W is already in VIN_SYS_5V0.
      {"agx-orin-jp5",
       "jetson",
       "Jetson AGX Orin",
       {"VDD_GPU_SOC", "VDD_CPU_CV", "VIN_SYS_5V0"},
       19.064 * 0.208 + 19.064 * 0.056 + 4.984 * 0.568},
      // in_power of GPU, CPU, SOC, CV, VDDRQ, SYS5V: 0 + 305 + 1239 + 0 + 305 + 1861 mW.
      {"agx-xavier-r32",
       "jetson",
       "Jetson AGX Xavier",
       {"GPU", "CPU", "SOC", "CV", "VDDRQ", "SYS5V"},
       3.710},
      {"jp5-hwmon", "jetson", "Jetson Orin NX", {"VDD_IN"}, 5.072 * 1.144},
      {"agx-thor", "hwmon", "Jetson AGX Thor", {"VIN"}, 24.96},
      {"tx2-jp4", "jetson", "", {"VDD_IN"}, 1.929},  // model-less tree: the generic rule
  };
  for (const auto& c : cases) {
    INFO(c.fixture);
    PowerOptions o;
    o.source = c.source;
    o.sysfs_root = kAllFixtures + "/power/" + c.fixture;
    auto meter = EnergyMeter::open(o);
    const auto p = edp::platform::probe(o.sysfs_root);
    CHECK(p.board == c.board);
    const TotalRails t = choose_total_rails(meter.rails(), edp::bench::rail_roles(p), {});
    CHECK(t.rails == c.total);
    double w = 0;
    for (const auto& r : meter.read_now())
      if (std::find(t.rails.begin(), t.rails.end(), r.rail) != t.rails.end())
        w += r.reading.power_w;
    CHECK(w == Approx(c.total_w).epsilon(1e-3));
  }
}

TEST_CASE("auto on a Jetson not in the table prefers a rail named VDD_IN or POM_5V_IN",
          "[total_rails]") {
  SECTION("VDD_IN") {
    const TotalRails t = choose(
        {rail("jetson", "VDD_CPU_GPU_CV"), rail("jetson", "VDD_IN"), rail("jetson", "VDD_XYZ")}, "",
        {});
    CHECK(t.rails == Names{"VDD_IN"});
    CHECK_THAT(t.why, Contains("board unknown"));
    CHECK_THAT(t.why, Contains("VDD_CPU_GPU_CV: inside VDD_IN"));
    CHECK_THAT(t.why, Contains("VDD_XYZ: not in the board table"));
  }
  SECTION("POM_5V_IN") {
    const TotalRails t = choose(
        {rail("jetson", "POM_5V_IN"), rail("jetson", "POM_5V_GPU"), rail("jetson", "POM_5V_CPU")},
        "Some Future Board", {});
    CHECK(t.rails == Names{"POM_5V_IN"});
    CHECK_THAT(t.why, Contains("board 'Some Future Board', not in the board table"));
  }
}

TEST_CASE("auto on a Jetson with no known input rail measures nothing rather than guess",
          "[total_rails]") {
  SECTION("unknown board, no input name") {
    const TotalRails t =
        choose({rail("jetson", "VDD_A"), rail("jetson", "VDD_B"), rail("jetson", "VDD_C")}, "", {});
    CHECK(t.rails.empty());
    CHECK_THAT(t.why, Contains("energy is not measured"));
    CHECK_THAT(t.why, Contains("no rail is named VDD_IN or POM_5V_IN"));
    CHECK_THAT(t.why, Contains("power.total_rails"));
  }
  SECTION("nor does it report another source's rails alone") {
    const TotalRails t = choose(
        {rail("jetson", "VDD_A"), rail("jetson", "VDD_B"), rail("hwmon", "ina226_1-0044")}, "", {});
    CHECK(t.rails.empty());
    CHECK_THAT(t.why, Contains("not summed alone"));
  }
  SECTION("a TX2 whose module input monitor is missing does not fall back to VDD_MUX") {
    auto rails = tx2_rails();
    rails.erase(rails.begin() + 3);  // VDD_IN
    const TotalRails t = choose(rails, "quill", {});
    CHECK(t.rails.empty());
    CHECK_THAT(t.why, Contains("the module input (VDD_IN) is not among the rails"));
  }
  SECTION("an AGX Xavier with a supply missing") {
    const TotalRails t = choose(
        {rail("jetson", "GPU"), rail("jetson", "CPU"), rail("jetson", "SOC")}, "Jetson-AGX", {});
    CHECK(t.rails.empty());
    CHECK_THAT(t.why, Contains("CV, VDDRQ, SYS5V is missing"));
  }
}

TEST_CASE("auto on boards without an input monitor sums their parallel supplies", "[total_rails]") {
  SECTION("AGX Xavier") {
    std::vector<EnergyMeter::Rail> rails;
    for (const char* n : {"GPU", "CPU", "SOC", "CV", "VDDRQ", "SYS5V"})
      rails.push_back(rail("jetson", n));
    const TotalRails t = choose(rails, "Jetson-AGX", {});
    CHECK(t.rails == Names{"GPU", "CPU", "SOC", "CV", "VDDRQ", "SYS5V"});
    CHECK_THAT(t.why, Contains("Jetson AGX Xavier"));
  }
  SECTION("AGX Orin: VDDQ_VDD2_1V8AO is fed by VIN_SYS_5V0 and not added to it") {
    // Issue 21, defect 1: the sum of all four read +4% high.
    std::vector<EnergyMeter::Rail> rails;
    for (const char* n : {"VDD_GPU_SOC", "VDD_CPU_CV", "VIN_SYS_5V0", "VDDQ_VDD2_1V8AO"})
      rails.push_back(rail("jetson", n));
    const TotalRails t = choose(rails, "NVIDIA Jetson AGX Orin Developer Kit", {});
    CHECK(t.rails == Names{"VDD_GPU_SOC", "VDD_CPU_CV", "VIN_SYS_5V0"});
    CHECK_THAT(t.why, Contains("Jetson AGX Orin"));
    CHECK_THAT(t.why, Contains("VDDQ_VDD2_1V8AO is fed by VIN_SYS_5V0"));
    // The sources' disagreement and the choice go into context.json with `why`.
    CHECK_THAT(t.why, Contains("jtop and tegrastats users sum all four rails. The NVIDIA answer "
                               "is followed"));
    CHECK_THAT(t.why, Contains("left out VDDQ_VDD2_1V8AO: fed by VIN_SYS_5V0"));
  }
  SECTION("AGX Xavier on L4T R32.1, whose model is 'jetson-xavier'") {
    // Issue 21, defect 3: not matched, so no total.
    std::vector<EnergyMeter::Rail> rails;
    for (const char* n : {"GPU", "CPU", "SOC", "CV", "VDDRQ", "SYS5V"})
      rails.push_back(rail("jetson", n));
    const TotalRails t = choose(rails, "jetson-xavier", {});
    CHECK(t.rails == Names{"GPU", "CPU", "SOC", "CV", "VDDRQ", "SYS5V"});
    CHECK_THAT(t.why, Contains("Jetson AGX Xavier"));
  }
}

TEST_CASE("an explicit total that adds a rail to the rail that feeds it is refused",
          "[total_rails]") {
  // Issue 21, defect 1: [VIN_SYS_5V0, VDDQ_VDD2_1V8AO] was accepted.
  std::vector<EnergyMeter::Rail> rails;
  for (const char* n : {"VDD_GPU_SOC", "VDD_CPU_CV", "VIN_SYS_5V0", "VDDQ_VDD2_1V8AO"})
    rails.push_back(rail("jetson", n));
  const std::string orin = "NVIDIA Jetson AGX Orin Developer Kit";
  try {
    choose(rails, orin, {"VIN_SYS_5V0", "VDDQ_VDD2_1V8AO"});
    FAIL("nested total accepted");
  } catch (const edp::UsageError& e) {
    CHECK_THAT(e.what(), Contains("VDDQ_VDD2_1V8AO is fed by VIN_SYS_5V0"));
    CHECK_THAT(e.what(), Contains("Use total_rails: [VIN_SYS_5V0] or auto"));
  }
  // Order does not matter; the three parallel supplies are fine.
  CHECK_THROWS_AS(choose(rails, orin, {"VDDQ_VDD2_1V8AO", "VIN_SYS_5V0"}), edp::UsageError);
  CHECK(choose(rails, orin, {"VDD_GPU_SOC", "VDD_CPU_CV", "VIN_SYS_5V0"}).rails.size() == 3);
  // On an unknown board the names still mean what they mean on the AGX Orin.
  CHECK_THROWS_AS(choose(rails, "", {"VIN_SYS_5V0", "VDDQ_VDD2_1V8AO"}), edp::UsageError);
}

TEST_CASE("AGX Thor: the carrier INA238's VIN on hwmon is the total, module rails inside",
          "[total_rails]") {
  const std::vector<EnergyMeter::Rail> rails = {
      rail("jetson", "VDD_GPU"), rail("jetson", "VDD_CPU_SOC_MSS"), rail("hwmon", "VIN")};
  const TotalRails t = choose(rails, "NVIDIA Jetson AGX Thor Developer Kit", {});
  CHECK(t.rails == Names{"VIN"});
  CHECK_THAT(t.why, Contains("jetson+hwmon (Jetson AGX Thor): VIN, the module input"));
  CHECK_THAT(t.why,
             Contains("left out VDD_GPU, VDD_CPU_SOC_MSS: not in the Jetson AGX Thor table"));
  // An INA238 without a DT label is named after its chip and bus address.
  const TotalRails u =
      choose({rail("hwmon", "ina238_2-0044")}, "NVIDIA Jetson AGX Thor Developer Kit", {});
  CHECK(u.rails == Names{"ina238_2-0044"});
}

TEST_CASE("the board table tells the TX2 NX, the Orin Nano and the Nano from their neighbours",
          "[total_rails]") {
  const std::vector<EnergyMeter::Rail> nx = {
      rail("jetson", "VDD_IN"), rail("jetson", "VDD_CPU_GPU"), rail("jetson", "VDD_SOC")};
  CHECK_THAT(choose(nx, "lanai-3636", {}).why, Contains("(Jetson TX2 NX)"));
  CHECK_THAT(choose(tx2_rails(), "quill", {}).why, Contains("(Jetson TX2)"));
  const std::vector<EnergyMeter::Rail> orin = {
      rail("jetson", "VDD_IN"), rail("jetson", "VDD_CPU_GPU_CV"), rail("jetson", "VDD_SOC")};
  const TotalRails t = choose(orin, "NVIDIA Jetson Orin Nano Developer Kit", {});
  CHECK(t.rails == Names{"VDD_IN"});
  CHECK_THAT(t.why, Contains("(Jetson Orin Nano)"));
  const std::vector<EnergyMeter::Rail> nano = {
      rail("jetson", "POM_5V_IN"), rail("jetson", "POM_5V_GPU"), rail("jetson", "POM_5V_CPU")};
  const TotalRails n = choose(nano, "NVIDIA Jetson Nano Developer Kit", {});
  CHECK(n.rails == Names{"POM_5V_IN"});
  CHECK_THAT(n.why, Contains("(Jetson Nano)"));
  CHECK_THAT(n.why, Contains("POM_5V_GPU, POM_5V_CPU: inside POM_5V_IN"));
}

TEST_CASE("auto with RAPL psys takes psys alone", "[total_rails]") {
  const TotalRails t = choose(rapl_rails(true), "", {});
  CHECK(t.rails == Names{"psys"});
  CHECK_THAT(t.why, Contains("left out package-0, package-0/core, package-0/uncore, "
                             "package-0/dram, package-1, package-1/core: inside psys"));
}

TEST_CASE("auto with RAPL without psys takes the packages without their subzones",
          "[total_rails]") {
  const TotalRails t = choose(rapl_rails(false), "", {});
  CHECK(t.rails == Names{"package-0", "package-1"});
  CHECK_THAT(t.why, Contains("left out package-0/core, package-0/uncore, package-0/dram: "
                             "inside package-0"));
  CHECK_THAT(t.why, Contains("left out package-1/core: inside package-1"));
}

TEST_CASE("auto with RAPL and NVML adds every GPU to the packages", "[total_rails]") {
  auto rails = rapl_rails(false);
  rails.push_back(rail("nvml", "gpu0"));
  rails.push_back(rail("nvml", "gpu1"));
  const TotalRails t = choose(rails, "OptiPlex 7070", {});
  CHECK(t.rails == Names{"package-0", "package-1", "gpu0", "gpu1"});
  CHECK_THAT(t.why, Contains("energy = package-0 + package-1 + gpu0 + gpu1"));
}

TEST_CASE("the fake RAPL trees through EnergyMeter::open give psys, else package-0",
          "[total_rails]") {
  PowerOptions o;
  o.source = "rapl";
  o.sysfs_root = kAllFixtures + "/power/rapl-psys";
  CHECK(choose(EnergyMeter::open(o).rails(), "", {}).rails == Names{"psys"});
  o.sysfs_root = kAllFixtures + "/power/rapl";
  CHECK(choose(EnergyMeter::open(o).rails(), "", {}).rails == Names{"package-0"});
}

TEST_CASE("auto counts a trace's rails, except the sub-rails of a Jetson input it replays",
          "[total_rails]") {
  const TotalRails tx2 = choose({rail("trace", "VDD_IN"), rail("trace", "VDD_SYS_GPU")}, "", {});
  CHECK(tx2.rails == Names{"VDD_IN"});
  const TotalRails other = choose({rail("trace", "board"), rail("trace", "fan")}, "", {});
  CHECK(other.rails == Names{"board", "fan"});
}

TEST_CASE(
    "auto on a Jetson leaves out an external hwmon monitor: outside the module, or its supply",
    "[total_rails]") {
  // A user's INA226 on the TX2's I2C bus (hwmon ina2xx), usually on the
  // board's DC input, which holds VDD_IN: added to VDD_IN it counts the
  // module twice. Like the carrier's rails it is not module energy either way.
  auto rails = tx2_rails();
  rails.push_back(rail("hwmon", "ina226_1-0045"));
  const TotalRails t = choose(rails, "quill", {});
  CHECK(t.rails == Names{"VDD_IN"});
  CHECK_THAT(t.why, Contains("left out ina226_1-0045"));
  CHECK_THAT(t.why, Contains("power.total_rails"));
  // On a Jetson not in the table, by the VDD_IN name, the same.
  const TotalRails u = choose(
      {rail("jetson", "VDD_IN"), rail("jetson", "VDD_X"), rail("hwmon", "ina219_1-0041")}, "", {});
  CHECK(u.rails == Names{"VDD_IN"});
}

TEST_CASE("auto counts every hwmon rail as an independent monitor", "[total_rails]") {
  auto rails = rapl_rails(false);
  rails.push_back(rail("hwmon", "ina226_1-0040"));
  rails.push_back(rail("hwmon", "ina219_1-0041"));
  const TotalRails t = choose(rails, "", {});
  CHECK(t.rails == Names{"package-0", "package-1", "ina226_1-0040", "ina219_1-0041"});
}

TEST_CASE("an explicit list with nested rails is refused, saying which contains which",
          "[total_rails]") {
  SECTION("VDD_IN and one of its sub-rails") {
    const std::string e = usage_error(tx2_rails(), "quill", {"VDD_IN", "VDD_SYS_GPU"});
    CHECK_THAT(e, Contains("VDD_SYS_GPU is inside VDD_IN"));
    CHECK_THAT(e, Contains("Use total_rails: [VDD_IN] or auto"));
  }
  SECTION("the carrier's VDD_MUX and VDD_IN: keep the module input") {
    const std::string e = usage_error(tx2_rails(), "quill", {"VDD_MUX", "VDD_IN"});
    CHECK_THAT(e, Contains("VDD_IN is inside VDD_MUX"));
    CHECK_THAT(e, Contains("Use total_rails: [VDD_IN] or auto"));
  }
  SECTION("the carrier's VDD_MUX and a module sub-rail: VDD_MUX holds VDD_IN, which holds it") {
    const std::string e = usage_error(tx2_rails(), "quill", {"VDD_MUX", "VDD_SYS_CPU"});
    CHECK_THAT(e, Contains("VDD_SYS_CPU is inside VDD_MUX"));
    CHECK_THAT(e, Contains("Use total_rails: [VDD_SYS_CPU] or auto"));
  }
  SECTION("one rail read by two sources (the jetson source and a trace of it)") {
    auto rails = tx2_rails();
    rails.push_back(rail("trace", "trace:VDD_IN"));
    const std::string e = usage_error(rails, "quill", {"VDD_IN", "trace:VDD_IN"});
    CHECK_THAT(e, Contains("trace:VDD_IN and VDD_IN are the same rail"));
    CHECK_THAT(e, Contains("Use total_rails: [VDD_IN] or auto"));
  }
  SECTION("on a board not in the table, by the rail names") {
    const std::string e = usage_error({rail("jetson", "VDD_IN"), rail("jetson", "VDD_SOC")}, "",
                                      {"VDD_SOC", "VDD_IN"});
    CHECK_THAT(e, Contains("VDD_SOC is inside VDD_IN"));
  }
  SECTION("a RAPL package and its subzone") {
    const std::string e =
        usage_error(rapl_rails(false), "", {"package-0", "package-0/core", "package-1"});
    CHECK_THAT(e, Contains("package-0/core is inside package-0"));
    CHECK_THAT(e, Contains("Use total_rails: [package-0, package-1] or auto"));
  }
  SECTION("psys and a package") {
    const std::string e = usage_error(rapl_rails(true), "", {"package-0", "psys"});
    CHECK_THAT(e, Contains("package-0 is inside psys"));
    CHECK_THAT(e, Contains("Use total_rails: [psys] or auto"));
  }
  SECTION("a rail named twice") {
    const std::string e = usage_error(tx2_rails(), "quill", {"VDD_IN", "VDD_IN"});
    CHECK_THAT(e, Contains("names 'VDD_IN' twice"));
  }
}

TEST_CASE("an explicit list naming a rail the source lacks is refused, listing what it has",
          "[total_rails]") {
  const std::string e = usage_error(tx2_rails(), "quill", {"VDD_IN", "VDD_GPU", "VDD_CPU"});
  CHECK_THAT(e, Contains("names 'VDD_GPU', 'VDD_CPU', which the jetson source does not have"));
  CHECK_THAT(e, Contains("(it has: VDD_SYS_GPU, VDD_SYS_SOC, VDD_4V0_WIFI, VDD_IN,"));
  auto rails = rapl_rails(false);
  rails.push_back(rail("nvml", "gpu0"));
  CHECK_THAT(usage_error(rails, "", {"gpu1"}), Contains("the rapl+nvml source does not have"));
}

TEST_CASE("an explicit list of rails that do not nest is kept as given", "[total_rails]") {
  const TotalRails a = choose(tx2_rails(), "quill", {"VDD_SYS_CPU", "VDD_SYS_GPU"});
  CHECK(a.rails == Names{"VDD_SYS_CPU", "VDD_SYS_GPU"});
  CHECK_THAT(a.why, Contains("energy = VDD_SYS_CPU + VDD_SYS_GPU (power.total_rails"));
  auto rails = rapl_rails(false);
  rails.push_back(rail("nvml", "gpu0"));
  CHECK(choose(rails, "", {"package-1", "gpu0", "package-0/core"}).rails ==
        Names{"package-1", "gpu0", "package-0/core"});
}

TEST_CASE("with no power source nothing is chosen and nothing refused", "[total_rails]") {
  const TotalRails t = choose({}, "quill", {"VDD_IN"});
  CHECK(t.rails.empty());
  CHECK_THAT(t.why, Contains("no power source"));
  CHECK(choose({}, "", {}).rails.empty());
}
