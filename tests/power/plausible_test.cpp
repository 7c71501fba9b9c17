// Issue 33, item 5: live sensor values have a plausible range, and a sensor
// file that vanishes or is replaced mid-run is a failure, not a constant. On
// the faithful fakes of tests/fixtures/power (the real file names and units:
// the TX2's ina3221x in_power0_input in mW, JetPack 5's ina3221 hwmon
// in1_input mV / curr1_input mA / shunt1_resistor uOhm, an ina226 hwmon's
// power1_input uW, RAPL's energy_uj against max_energy_range_uj).
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <thread>

#include "power/energy_meter.h"
#include "power/hwmon.h"
#include "power/jetson_rails.h"
#include "power/plausible.h"
#include "power/rapl.h"
#include "support/files.h"
#include "support/fixtures.h"

using edp::testing::CopiedTree;
using edp::testing::kPowerFixtures;
using namespace edp::power;

namespace {

const std::string kTx2VddIn = "sys/bus/i2c/drivers/ina3221x/0-0041/iio:device1/in_power0_input";
const std::string kJp5 = "sys/bus/i2c/drivers/ina3221/1-0040/hwmon/hwmon3";

// One read of every rail: (failed rails, error, values).
struct Read {
  size_t failed;
  std::string error;
  std::vector<double> w;
};
Read read_once(Sensor& s) {
  Read r{0, "", std::vector<double>(s.rails().size())};
  r.failed = s.read(r.w.data(), &r.error);
  return r;
}

size_t index_of(const Sensor& s, const std::string& rail) {
  for (size_t i = 0; i < s.rails().size(); ++i)
    if (s.rails()[i].rail == rail) return i;
  FAIL("no rail " << rail);
  return 0;
}

}  // namespace

TEST_CASE("plausible: the INA3221 range from its datasheet and the stated shunt", "[plausible]") {
  // 5 mOhm (the JetPack 5 fixture's shunt1_resistor 5000 uOhm): 163.84 mV /
  // 5 mOhm = 32.768 A, x 32.76 V = 1073.5 W; the 80 uV offset at 32.76 V is
  // -0.524 W.
  const ChannelRange r = ina3221_range(0.005);
  CHECK(r.i_max == Approx(32.768));
  CHECK(r.p_max == Approx(1073.48).epsilon(1e-4));
  CHECK(r.p_min == Approx(-0.52416));
  CHECK(r.v_min == 0);
  CHECK(r.v_max == Approx(32.76));
  // No shunt stated (JetPack 4): 1 mOhm, the widest.
  CHECK(ina3221_range(0).p_max == Approx(5367.4).epsilon(1e-4));
  // hwmon INA226 with its 10 mOhm shunt_resistor: 81.92 mV / 10 mOhm x 40.96 V.
  const ChannelRange h = ina2xx_range("ina226", 0.010);
  CHECK(h.p_max == Approx(335.54).epsilon(1e-4));
  CHECK(h.p_min == 0);
  RailReading ok;
  ok.power_w = 7.5;
  CHECK(outside_range(h, ok).empty());
}

TEST_CASE("plausible: an in-place -5000 mW or 9223372036854775807 mW on a TX2 is a failed read",
          "[plausible][jetson]") {
  // The audit: -5 W read as -5 W with negative energy and status ok, and
  // LLONG_MAX mW as 9.2e15 W, ok.
  CopiedTree tree(kPowerFixtures + "/tx2-jp4");
  std::vector<std::string> log;
  auto s = discover_jetson_rails(tree.path, &log);
  REQUIRE(s);
  const size_t vdd_in = index_of(*s, "VDD_IN");
  Read r = read_once(*s);
  CHECK(r.failed == 0);
  CHECK(r.w[vdd_in] == Approx(1.929));
  for (const char* bad : {"-5000", "9223372036854775807"}) {
    tree.write(kTx2VddIn, bad);
    r = read_once(*s);
    INFO(bad << ": " << r.error);
    CHECK(r.failed == 1);
    CHECK(std::isnan(r.w[vdd_in]));
    CHECK(r.error.find("VDD_IN") != std::string::npos);
    CHECK(r.error.find("is outside -2.621..5367 W, what an INA3221 (TI SBOS576) with a 1 mOhm "
                       "shunt (none stated: the smallest) can read") != std::string::npos);
  }
  // An idle rail's small negative reading (the chip's offset) stays a value.
  tree.write(kTx2VddIn, "-8");
  CHECK(read_once(*s).failed == 0);
}

TEST_CASE("plausible: JetPack 5 currents beyond the shunt's full scale are failed reads",
          "[plausible][jetson]") {
  CopiedTree tree(kPowerFixtures + "/jp5-hwmon");
  std::vector<std::string> log;
  auto s = discover_jetson_rails(tree.path, &log);
  REQUIRE(s);
  const size_t vdd_in = index_of(*s, "VDD_IN");
  CHECK(read_once(*s).failed == 0);
  tree.write(kJp5 + "/curr1_input", "40000");  // 40 A > 163.84 mV / 5 mOhm
  Read r = read_once(*s);
  CHECK(r.failed == 1);
  CHECK(std::isnan(r.w[vdd_in]));
  CHECK(r.error.find("current 40 A is outside -32.77..32.77 A") != std::string::npos);
  tree.write(kJp5 + "/curr1_input", "1144");
  tree.write(kJp5 + "/in1_input", "40000");  // 40 V > the 32.76 V register
  CHECK(read_once(*s).failed == 1);
}

TEST_CASE("plausible: an ina226's negative power1_input is a failed read", "[plausible][hwmon]") {
  CopiedTree tree(kPowerFixtures + "/hwmon-ina226");
  std::vector<std::string> log;
  auto s = discover_hwmon(tree.path, &log);
  REQUIRE(s);
  CHECK(read_once(*s).failed == 0);
  tree.write("sys/class/hwmon/hwmon1/power1_input", "-5000000");  // -5 W in uW
  const Read r = read_once(*s);
  CHECK(r.failed == 1);
  CHECK(r.error.find("power -5 W is outside 0..335.5 W") != std::string::npos);
}

TEST_CASE("plausible: a RAPL counter beyond max_energy_range_uj is a failed read",
          "[plausible][rapl]") {
  CopiedTree tree(kPowerFixtures + "/rapl");
  std::vector<std::string> log;
  auto s = discover_rapl(tree.path, &log);
  REQUIRE(s);
  CHECK(read_once(*s).failed == 0);
  tree.write("sys/class/powercap/intel-rapl:0/energy_uj", "9223372036854775807");
  const Read r = read_once(*s);
  CHECK(r.failed >= 1);
  CHECK(r.error.find("is outside the counter's 0..262143328850 (max_energy_range_uj)") !=
        std::string::npos);
}

TEST_CASE("plausible: a sensor file renamed, deleted or replaced is a failure, not a constant",
          "[plausible][jetson]") {
  CopiedTree tree(kPowerFixtures + "/tx2-jp4");
  std::vector<std::string> log;
  auto s = discover_jetson_rails(tree.path, &log);
  REQUIRE(s);
  const size_t vdd_in = index_of(*s, "VDD_IN");
  const std::string file = tree.path + "/" + kTx2VddIn;
  REQUIRE(read_once(*s).failed == 0);
  // Renamed away: the open descriptor still reads the old 1929 mW.
  REQUIRE(std::rename(file.c_str(), (file + ".old").c_str()) == 0);
  Read r = read_once(*s);
  CHECK(r.failed == 1);
  CHECK(std::isnan(r.w[vdd_in]));
  CHECK(r.error.find("in_power0_input is gone") != std::string::npos);
  // Replaced by another file with the same name.
  tree.write(kTx2VddIn, "1929");
  r = read_once(*s);
  CHECK(r.failed == 1);
  CHECK(r.error.find("was replaced by another file") != std::string::npos);
  // Deleted.
  REQUIRE(std::remove(file.c_str()) == 0);
  CHECK(read_once(*s).failed == 1);

  // Through the meter: a window over a vanished total rail is not "ok": it
  // has failed reads (before: the stale value, distinct_values 1, not frozen).
  CopiedTree tree2(kPowerFixtures + "/tx2-jp4");
  PowerOptions o;
  o.source = "jetson";
  o.sysfs_root = tree2.path;
  o.rate_hz = 100;
  auto meter = EnergyMeter::open(o);
  meter.begin_window("run");
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  const std::string file2 = tree2.path + "/" + kTx2VddIn;
  REQUIRE(std::rename(file2.c_str(), (file2 + ".old").c_str()) == 0);
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  const Measurement m = meter.end_window("run");
  // Every read after the rename fails (read_once above shows it read by
  // read); how many the sampler made in 200 ms depends on the scheduler (3 in
  // a fresh root at load 5, where 10 were asked), so the window is checked
  // for what the fix changes: failures where there were none, and a window
  // that is not complete.
  for (const auto& rail : m.rails)
    if (rail.rail == "VDD_IN") CHECK(rail.read_failures >= 1);
  CHECK(m.read_failures >= 1);
  CHECK_FALSE(m.complete);
}
