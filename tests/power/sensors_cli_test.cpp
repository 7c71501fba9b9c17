// `edpbench sensors` as a user runs it, against the fake TX2 tree.
#include <catch2/catch.hpp>

#include <ctime>
#include <sstream>
#include <vector>

#include "power/ina3221_sim.h"
#include "support/binary.h"

#include <sys/wait.h>

#include <cstdio>
#include <string>
#include "support/fixtures.h"

using edp::testing::kTx2Rails;

namespace {

struct CliRun {
  int exit_code;
  std::string out;
};

CliRun run(const std::string& args) {
  const std::string cmd = std::string(EDPBENCH_BINARY) + " " + args + " 2>/dev/null";
  FILE* p = popen(cmd.c_str(), "r");
  REQUIRE(p);
  std::string out;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof(buf), p)) > 0) out.append(buf, n);
  const int status = pclose(p);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

}  // namespace

TEST_CASE("sensors --csv prints one row per TX2 rail", "[cli]") {
  CliRun r = run("sensors --sysfs-root " + kTx2Rails + " --source jetson --csv --samples 1");
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.out, Catch::StartsWith("sensor,rail,voltage_v,current_a,power_w,unix_s\n"));
  CHECK_THAT(r.out, Catch::Contains("jetson,VDD_IN,19.104,0.101,1.929,"));
  CHECK_THAT(r.out, Catch::Contains("jetson,VDD_SYS_GPU,19.080,0.008,0.152,"));
  CHECK_THAT(r.out, Catch::Contains("jetson,VDD_1V8_IO,1.800,0.028,0.050,"));
  // Every row carries when its sensor was read.
  std::istringstream lines_in(r.out);
  std::string line;
  std::getline(lines_in, line);
  const double now = static_cast<double>(std::time(nullptr));
  while (std::getline(lines_in, line)) {
    const double unix_s = std::stod(line.substr(line.rfind(',') + 1));
    CHECK(unix_s == Approx(now).margin(60));
  }
  CHECK_THAT(r.out, !Catch::Contains("NC"));
  size_t lines = 0;
  for (char c : r.out) lines += c == '\n';
  CHECK(lines == 12);  // header + 11 rails
}

TEST_CASE("sensors --watch refreshes the running counters per rail", "[cli]") {
  edp::testing::Ina3221Sim sim;
  CliRun r = run("sensors --source jetson --sysfs-root " + sim.root() +
                 " --watch --interval-s 0.6 --samples 2");
  INFO(r.out);
  REQUIRE(r.exit_code == 0);
  // Two blocks (not a terminal: one after another), each a header and a row
  // per rail; VDD_IN is the total rail, and its joules grow.
  std::vector<double> joules;
  std::istringstream in(r.out);
  std::string line;
  size_t headers = 0;
  while (std::getline(in, line)) {
    if (line.rfind("edpbench sensors --watch: jetson at ", 0) == 0) ++headers;
    if (line.rfind("VDD_IN ", 0) == 0) {
      std::istringstream cells(line);
      std::string rail, star, timing;
      double power_w = 0, energy_j = 0;
      cells >> rail >> star >> timing >> power_w >> energy_j;
      CHECK(star == "*");
      CHECK(timing == "averaging");
      CHECK(power_w == Approx(2.0).margin(0.2));  // the simulator's idle VDD_IN
      joules.push_back(energy_j);
    }
  }
  CHECK(headers == 2);
  REQUIRE(joules.size() == 2);
  CHECK(joules[1] - joules[0] == Approx(2.0 * 0.6).margin(0.4));
  CHECK_THAT(r.out, Catch::Contains("total (* VDD_IN)") && Catch::Contains("missed deadlines"));
  CHECK(run("sensors --source jetson --sysfs-root " + sim.root() + " --watch --csv").exit_code ==
        2);
}

TEST_CASE("sensors without --csv lists what was found and missing", "[cli]") {
  CliRun r = run("sensors --sysfs-root " + kTx2Rails);
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.out, Catch::StartsWith("source: jetson\n"));
  CHECK_THAT(r.out, Catch::Contains("jetson: found VDD_IN"));
  CHECK_THAT(r.out, Catch::Contains("rapl: "));
  CHECK_THAT(r.out, Catch::Contains("VDD_IN"));
}

TEST_CASE("sensors exits 2 for a requested source that is missing", "[cli]") {
  CHECK(run("sensors --sysfs-root " + kTx2Rails + " --source rapl").exit_code == 2);
  CHECK(run("sensors --sysfs-root " + kTx2Rails + " --ina226 /dev/i2c-1:0x40").exit_code == 2);
  CHECK(run("sensors --ina226 /dev/i2c-1:0x99").exit_code == 2);
  CHECK(run("sensors --source bogus").exit_code == 2);
}

TEST_CASE("sensors --measure-s shows distinct values and failures per rail", "[cli]") {
  const std::string trace = EDPBENCH_FIXTURES "/power/traces/vdd_in_fails.csv";
  CliRun r = run("sensors --source trace --trace " + trace + " --measure-s 0.5");
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.out, Catch::Contains("update_interval_s"));
  CHECK_THAT(r.out, Catch::Contains("instantaneous"));  // a trace's timing model
  CHECK_THAT(r.out, Catch::Contains("first failure: trace: no value for VDD_IN_w at t="));
  CHECK(run("sensors --source trace --trace " + trace + " --measure-s 1 --csv").exit_code == 2);
}

TEST_CASE("sensors --measure-s names the averaging model and the update interval of an INA3221",
          "[cli]") {
  edp::testing::Ina3221Sim sim;  // updates every 0.43 s
  CliRun r = run("sensors --source jetson --sysfs-root " + sim.root() + " --measure-s 2.5");
  INFO(r.out);
  REQUIRE(r.exit_code == 0);
  std::string vdd_in;
  std::istringstream lines(r.out);
  for (std::string line; std::getline(lines, line);)
    if (line.rfind("VDD_IN ", 0) == 0) vdd_in = line;
  REQUIRE_FALSE(vdd_in.empty());
  CHECK_THAT(vdd_in, Catch::Contains("averaging"));
  // The update interval the sampler measured, within 15% of the chip's.
  std::istringstream fields(vdd_in);
  std::string rail, timing;
  double energy = 0, power = 0, distinct = 0, interval = 0;
  fields >> rail >> timing >> energy >> power >> distinct >> interval;
  CHECK(interval == Approx(0.43).epsilon(0.15));
  CHECK_THAT(vdd_in, !Catch::Contains("FROZEN"));
}

TEST_CASE("sensors prints the board, the table entry used and the total it gives", "[cli]") {
  const std::string fx = std::string(EDPBENCH_FIXTURES) + "/power/";
  CliRun orin = run("sensors --sysfs-root " + fx + "agx-orin-jp5");
  REQUIRE(orin.exit_code == 0);
  CHECK_THAT(orin.out, Catch::Contains("board: Jetson AGX Orin: the device-tree model 'NVIDIA "
                                       "Jetson AGX Orin Developer Kit' contains 'agx orin'"));
  CHECK_THAT(orin.out,
             Catch::Contains("total rails: energy = VDD_GPU_SOC + VDD_CPU_CV + VIN_SYS_5V0"));
  CliRun xavier = run("sensors --sysfs-root " + fx + "agx-xavier-r32");
  REQUIRE(xavier.exit_code == 0);
  CHECK_THAT(xavier.out, Catch::Contains("board: Jetson AGX Xavier: the device-tree model "
                                         "'jetson-xavier'"));
  CliRun tx2 = run("sensors --sysfs-root " + fx + "tx2-jp4");
  CHECK_THAT(tx2.out, Catch::Contains("board: board unknown (no device-tree model)"));
  CHECK_THAT(tx2.out, Catch::Contains("its name on every board in the table"));
}
