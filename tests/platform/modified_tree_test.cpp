// Behaviour under changed conditions, on temporary copies of the TX2 fixture:
// clocks that drop after discovery, Denver cores switched off by nvpmodel,
// another Jetson's GPU name, unreadable files.
#include <catch2/catch.hpp>

#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "common/errors.h"
#include "platform/platform.h"
#include "support/fixtures.h"

namespace fs = std::filesystem;
using edp::testing::kTx2Tree;
using namespace edp::platform;
using Catch::Contains;

namespace {

// A private copy of a fixture tree (symlinks kept as links), removed at exit.
class TempTree {
 public:
  explicit TempTree(const std::string& fixture) {
    std::string tmpl = (fs::temp_directory_path() / "edp-platform-XXXXXX").string();
    REQUIRE(mkdtemp(tmpl.data()) != nullptr);
    dir_ = tmpl;
    fs::copy(fixture, dir_, fs::copy_options::recursive | fs::copy_options::copy_symlinks);
  }
  ~TempTree() {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  TempTree(const TempTree&) = delete;
  TempTree& operator=(const TempTree&) = delete;

  std::string root() const { return dir_.string(); }
  // Rewrites an existing file in place, as the kernel updates an attribute.
  void write(const std::string& abs, const std::string& content) const {
    std::ofstream out(dir_.string() + abs, std::ios::trunc);
    REQUIRE(out);
    out << content;
  }
  void remove(const std::string& abs) const { fs::remove_all(dir_.string() + abs); }

 private:
  fs::path dir_;
};

std::string cpu_cur(int id) {
  return "/sys/devices/system/cpu/cpu" + std::to_string(id) + "/cpufreq/scaling_cur_freq";
}

}  // namespace

TEST_CASE("throttling: a CPU clock that fell after discovery is seen by the next snapshot") {
  TempTree tree(kTx2Tree);
  const Prober prober(tree.root());
  const Platform& p = prober.platform();
  const Snapshot before = prober.snapshot();
  CHECK_FALSE(throttled(p, before, {0, 3, 4, 5}, false));

  // Thermal capping: A57 cpu4 drops to 1.42 GHz while the workload runs.
  tree.write(cpu_cur(4), "1420800\n");
  const Snapshot after = prober.snapshot();
  CHECK(after.cpu_cur_khz[4] == 1420800);
  std::string why;
  CHECK(throttled(p, after, {0, 3, 4, 5}, false, 0.95, &why));
  CHECK(why == "cpu4 at 1420800 kHz < 95% of 2035200 kHz");
  // Only the workload's CPUs are judged.
  CHECK_FALSE(throttled(p, after, {1, 2}, false));
  // 1420800 is 69.8% of 2035200: not throttled at a 60% threshold.
  CHECK_FALSE(throttled(p, after, {4}, false, 0.60));
}

TEST_CASE("throttling: a GPU clock below max_freq counts only for GPU workloads") {
  TempTree tree(kTx2Tree);
  const Prober prober(tree.root());
  tree.write("/sys/devices/17000000.gp10b/devfreq/17000000.gp10b/cur_freq", "114750000\n");
  tree.write(cpu_cur(1), "345600\n");
  const Snapshot s = prober.snapshot();
  CHECK(s.gpu_cur_hz == 114750000);
  std::string why;
  CHECK(throttled(prober.platform(), s, {}, true, 0.95, &why));
  CHECK(why == "gpu at 114750000 Hz < 95% of 1300500000 Hz");
  CHECK(throttled(prober.platform(), s, {1}, true, 0.95, &why));
  CHECK_THAT(why, Contains("cpu1 at 345600 kHz") && Contains("; gpu at"));
  CHECK_FALSE(throttled(prober.platform(), s, {0}, false));
}

TEST_CASE("throttling: rising temperatures show up in the snapshot") {
  TempTree tree(kTx2Tree);
  const Prober prober(tree.root());
  tree.write("/sys/class/thermal/thermal_zone2/temp", "88500\n");
  const Snapshot s = prober.snapshot();
  CHECK(s.temps_c[2] == Approx(88.5));
  CHECK(s.max_temp_c == Approx(88.5));
}

TEST_CASE("MAXP_CORE_ARM: offline Denver cores keep their cluster and cannot be selected") {
  // nvpmodel -m 3 takes CPU1-2 offline; they vanish from /proc/cpuinfo and
  // lose cpufreq and regs/identification.
  TempTree tree(kTx2Tree);
  tree.write("/var/lib/nvpmodel/status", "pmode:0003\n");
  tree.write("/sys/devices/system/cpu/online", "0,3-5\n");
  tree.write("/sys/devices/system/cpu/offline", "1-2\n");
  for (int id : {1, 2}) {
    tree.write("/sys/devices/system/cpu/cpu" + std::to_string(id) + "/online", "0\n");
    tree.remove("/sys/devices/system/cpu/cpu" + std::to_string(id) + "/cpufreq");
    tree.remove("/sys/devices/system/cpu/cpu" + std::to_string(id) + "/regs");
  }
  {
    std::ifstream in(tree.root() + "/proc/cpuinfo");
    std::string all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const size_t from = all.find("processor\t: 1");
    const size_t to = all.find("processor\t: 3");
    tree.write("/proc/cpuinfo", all.erase(from, to - from));
  }
  const Platform p = probe(tree.root());
  CHECK(p.nvpmodel_mode == "MAXP_CORE_ARM");
  CHECK(p.nvpmodel_id == 3);
  REQUIRE(p.cpus.size() == 6);
  CHECK_FALSE(p.cpus[1].online);
  CHECK(p.cpus[1].cluster == "denver");
  CHECK(p.cpus[2].cluster == "denver");
  CHECK(p.cpus[1].governor.empty());
  CHECK(p.cpus[1].cur_khz == -1);
  CHECK(resolve_cpu_set(p, "all") == std::vector<int>{0, 3, 4, 5});
  CHECK(resolve_cpu_set(p, "a57") == std::vector<int>{0, 3, 4, 5});
  try {
    resolve_cpu_set(p, "denver");
    FAIL("denver resolved with both Denver cores offline");
  } catch (const edp::UsageError& e) {
    CHECK_THAT(e.what(), Contains("every CPU of the denver cluster (CPUs 1-2) is offline"));
    CHECK_THAT(e.what(), Contains("nvpmodel mode MAXP_CORE_ARM (id 3)"));
  }
  CHECK_THROWS_WITH(resolve_cpu_set(p, "0-2"), Contains("CPU 1 is offline (online CPUs: 0,3-5)"));
}

TEST_CASE("devfreq scan: another Jetson's GPU name is found without a hard-coded path") {
  TempTree tree(kTx2Tree);
  tree.remove("/sys/class/devfreq/17000000.gp10b");
  fs::create_directories(tree.root() + "/sys/class/devfreq/ff9a0000.dmc");
  tree.write("/sys/class/devfreq/ff9a0000.dmc/cur_freq", "800000000\n");
  fs::create_directories(tree.root() + "/sys/class/devfreq/17000000.gv11b");
  tree.write("/sys/class/devfreq/17000000.gv11b/cur_freq", "1377000000\n");
  tree.write("/sys/class/devfreq/17000000.gv11b/max_freq", "1377000000\n");
  tree.write("/sys/class/devfreq/17000000.gv11b/governor", "nvhost_podgov\n");
  const Platform p = probe(tree.root());
  CHECK(p.gpu_devfreq_path == "/sys/class/devfreq/17000000.gv11b");
  CHECK(p.gpu_max_hz == 1377000000);
}

TEST_CASE("devfreq scan: without the devfreq class the known TX2 path is used") {
  TempTree tree(kTx2Tree);
  tree.remove("/sys/class/devfreq");
  const Platform p = probe(tree.root());
  CHECK(p.gpu_devfreq_path == "/sys/devices/17000000.gp10b/devfreq/17000000.gp10b");
  CHECK(p.gpu_cur_hz == 1300500000);
}

TEST_CASE("missing and garbled files leave values unknown instead of failing") {
  TempTree tree(kTx2Tree);
  tree.remove("/sys/kernel/debug");  // debugfs without root
  tree.remove("/etc/nvpmodel.conf");
  tree.write("/sys/devices/system/cpu/cpu3/cpufreq/scaling_cur_freq", "<unsupported>\n");
  tree.write("/sys/class/thermal/thermal_zone4/temp", "");
  const Prober prober(tree.root());
  const Platform& p = prober.platform();
  CHECK(p.emc_hz == -1);
  CHECK(p.nvpmodel_mode == "MAXN");  // the built-in TX2 table
  CHECK(p.cpus[3].cur_khz == -1);
  CHECK(std::isnan(p.thermal[4].temp_c));
  const Snapshot s = prober.snapshot();
  CHECK(s.cpu_cur_khz[3] == -1);
  CHECK(std::isnan(s.temps_c[4]));
  CHECK_FALSE(throttled(p, s, {3}, false));
}

TEST_CASE("device tree: without the /proc/device-tree link /sys/firmware is read") {
  TempTree tree(kTx2Tree);
  tree.remove("/proc/device-tree");
  const Platform p = probe(tree.root());
  CHECK(p.model == "quill");
  CHECK(p.soc == "tegra186");
}

TEST_CASE("a sysfs root that does not exist is a usage error") {
  CHECK_THROWS_AS(probe("/nonexistent/edpbench-root"), edp::UsageError);
  CHECK_THROWS_WITH(probe("/nonexistent/edpbench-root"), Contains("is not a directory"));
}
