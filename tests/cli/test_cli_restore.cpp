// `edpbench restore`: a sweep that crashed after changing clocks left its
// state file behind; restore puts the board back and removes the file.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <map>

#include "platform/operating_point.h"
#include "platform/sysfs.h"
#include "support/process.h"

namespace fs = std::filesystem;
using namespace edp::platform;
using Catch::Contains;
using edp::testing::edpbench;
using edp::testing::run;

namespace {

const std::string kCpu = "/sys/devices/system/cpu/cpu";

// A writable copy of the TX2 fixture with an EMC cap file.
struct Tree {
  std::string dir = edp::testing::temp_dir("restore");
  std::string root = dir + "/root";
  Tree() {
    fs::copy(EDPBENCH_FIXTURES "/platform/tx2", root,
             fs::copy_options::recursive | fs::copy_options::copy_symlinks);
    fs::create_directories(root + "/sys/kernel/nvpmodel_emc_cap");
    edp::testing::write_text(root + "/sys/kernel/nvpmodel_emc_cap/emc_iso_cap", "0\n");
  }
  ~Tree() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
  std::string read(const std::string& abs) const {
    return SysfsRoot(root).read_line(abs).value_or("(missing)");
  }
};

// Applies MAXQ and an explicit point as a sweep would, then "crashes": the
// state file stays and nothing restores.
void crash_after_changes(const Tree& t, const std::vector<std::string>& state_paths) {
  const Platform p = probe(t.root);
  OperatingPoint maxq;
  maxq.name = "MAXQ";
  maxq.nvpmodel = 1;
  OperatingPoint capped;
  capped.name = "capped";
  capped.gpu_max_hz = 522750000;
  capped.cpu_governor = "powersave";
  const auto pts = validate_points(p, {maxq, capped});
  SavedState s = capture_state(p, pts);
  s.pid = 999999999;
  write_state(s, state_paths);
  ApplyOptions fast;
  fast.settle_timeout_s = 0.05;
  apply_point(p, pts[0], fast);
  apply_point(p, pts[1], fast);
  REQUIRE(t.read(kCpu + "1/online") == "0");
  REQUIRE(t.read(kCpu + "0/cpufreq/scaling_governor") == "powersave");
}

}  // namespace

TEST_CASE("CLI: restore --state puts back what a crashed sweep changed and removes the file") {
  Tree t;
  const std::string state = t.dir + "/out/clock-state.txt";
  crash_after_changes(t, {state});
  const auto r = edpbench("restore --state " + state + " --sysfs-root " + t.root);
  INFO(r.err);
  CHECK(r.exit_code == 0);
  CHECK(t.read(kCpu + "1/online") == "1");
  CHECK(t.read(kCpu + "2/online") == "1");
  CHECK(t.read(kCpu + "0/cpufreq/scaling_max_freq") == "2035200");
  CHECK(t.read(kCpu + "0/cpufreq/scaling_governor") == "schedutil");
  CHECK(t.read("/sys/devices/17000000.gp10b/devfreq/17000000.gp10b/max_freq") == "1300500000");
  CHECK_THAT(r.out, Contains(kCpu + "1/online=1"));
  CHECK_FALSE(fs::exists(state));
}

TEST_CASE("CLI: restore without --state finds the file in $STATE_DIRECTORY") {
  Tree t;
  const std::string sd = t.dir + "/state";
  crash_after_changes(t, {sd + "/clock-state.txt"});
  // The state file records the sysfs root, so no --sysfs-root is needed.
  const auto r = run("STATE_DIRECTORY=" + sd + " " + EDPBENCH_BINARY + " restore");
  INFO(r.err);
  CHECK(r.exit_code == 0);
  CHECK(t.read(kCpu + "1/online") == "1");
  CHECK_FALSE(fs::exists(sd + "/clock-state.txt"));
  const auto again = run("STATE_DIRECTORY=" + sd + " " + EDPBENCH_BINARY + " restore");
  CHECK(again.exit_code == 0);
  CHECK_THAT(again.err, Contains("nothing to restore"));
}

TEST_CASE("CLI: restore refuses a file that is not a state file (exit 2)") {
  Tree t;
  const std::string state = t.dir + "/bogus.txt";
  edp::testing::write_text(state, "hello\n");
  const auto r = edpbench("restore --state " + state);
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Contains("not an edpbench state file"));
  CHECK(fs::exists(state));
}
