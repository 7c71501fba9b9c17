// probe() against tests/fixtures/platform/tx2: a Jetson TX2 devkit on
// JetPack 4.6 (L4T R32.7.1) in nvpmodel MAXN, captured under load.
#include <catch2/catch.hpp>

#include <cmath>

#include "platform/platform.h"
#include "support/fixtures.h"

using edp::testing::kTx2Tree;
using namespace edp::platform;

namespace {}

TEST_CASE("TX2: the board is identified from the device tree, nv_tegra_release and nvpmodel") {
  const Platform p = probe(kTx2Tree);
  CHECK(p.model == "quill");  // the TX2 devkit's device-tree model, NUL stripped
  CHECK(p.soc == "tegra186");
  CHECK(p.is_jetson());
  CHECK(p.l4t_release == "R32.7.1");
  CHECK(p.nvpmodel_id == 0);
  CHECK(p.nvpmodel_mode == "MAXN");
  CHECK(p.sysfs_root == kTx2Tree);
}

TEST_CASE("TX2: CPU0 and CPU3-5 are the A57 cluster, CPU1-2 the Denver cluster") {
  const Platform p = probe(kTx2Tree);
  REQUIRE(p.cpus.size() == 6);
  for (int i = 0; i < 6; ++i) {
    CAPTURE(i);
    CHECK(p.cpus[i].id == i);
    CHECK(p.cpus[i].online);
    CHECK(p.cpus[i].cluster == (i == 1 || i == 2 ? "denver" : "a57"));
  }
  CHECK(p.clusters() == std::vector<std::string>{"a57", "denver"});
  CHECK(p.online_cpus() == std::vector<int>{0, 1, 2, 3, 4, 5});
  CHECK(p.cpus[0].model_name == "ARMv8 Processor rev 3 (v8l)");
}

TEST_CASE("TX2: cpufreq governor and clocks are read per CPU in kHz") {
  const Platform p = probe(kTx2Tree);
  for (const auto& c : p.cpus) {
    CAPTURE(c.id);
    CHECK(c.governor == "schedutil");
    CHECK(c.cur_khz == 2035200);
    CHECK(c.max_khz == 2035200);
    CHECK(c.hw_max_khz == 2035200);
    CHECK(c.base_khz == -1);  // only intel_pstate has base_frequency
  }
}

TEST_CASE("TX2: the gp10b GPU is found by scanning /sys/class/devfreq") {
  const Platform p = probe(kTx2Tree);
  // The class entry is a link; the reported path is the device it points to.
  CHECK(p.gpu_devfreq_path == "/sys/devices/17000000.gp10b/devfreq/17000000.gp10b");
  CHECK(p.gpu_governor == "nvhost_podgov");
  CHECK(p.gpu_cur_hz == 1300500000);
  CHECK(p.gpu_max_hz == 1300500000);
  CHECK(p.emc_hz == 1866000000);
}

// nvgpu's railgate_enable, railgate_delay (ms) and is_railgated sit on the
// GPU's device, the devfreq node's grandparent (nvgpu os/linux/sysfs.c;
// gp10b starts with railgate_delay_init = 500, platform_gp10b_tegra.c).
TEST_CASE("TX2: the GPU's rail-gating delay is read beside its devfreq node") {
  const Platform p = probe(kTx2Tree);
  CHECK(p.gpu_railgate_path == "/sys/devices/17000000.gp10b");
  CHECK(p.gpu_railgate_enable == 1);
  CHECK(p.gpu_railgate_delay_ms == 500);
  const Platform x86 = probe(EDPBENCH_FIXTURES "/platform/x86-vm");
  CHECK(x86.gpu_railgate_path.empty());
  CHECK(x86.gpu_railgate_delay_ms == -1);
}

TEST_CASE("TX2: thermal zones keep their order, type and temperature in degrees C") {
  const Platform p = probe(kTx2Tree);
  const std::vector<std::string> types = {"BCPU-therm", "MCPU-therm",     "GPU-therm",
                                          "PLL-therm",  "Tboard_tegra",   "Tdiode_tegra",
                                          "PMIC-Die",   "thermal-fan-est"};
  REQUIRE(p.thermal.size() == types.size());  // cooling_device0 is not a zone
  for (size_t i = 0; i < types.size(); ++i) {
    CHECK(p.thermal[i].index == static_cast<int>(i));
    CHECK(p.thermal[i].type == types[i]);
  }
  CHECK(p.thermal[0].temp_c == Approx(41.5));
  CHECK(p.thermal[2].temp_c == Approx(39.0));
  CHECK(p.thermal[5].temp_c == Approx(35.25));
}

TEST_CASE("TX2: a snapshot reads clocks and temperatures and ignores the constant PMIC zone") {
  const Prober prober(kTx2Tree);
  CHECK(prober.platform().l4t_release == "R32.7.1");
  const Snapshot s = prober.snapshot();
  CHECK(s.t_s > 0);
  CHECK(s.cpu_cur_khz == std::vector<long>(6, 2035200));
  CHECK(s.gpu_cur_hz == 1300500000);
  REQUIRE(s.temps_c.size() == 8);
  CHECK(s.temps_c[6] == Approx(100.0));
  CHECK(s.max_temp_c == Approx(41.5));  // BCPU-therm, not PMIC-Die's 100 C
}

TEST_CASE("TX2: clocks at their maximum are not throttling") {
  const Prober prober(kTx2Tree);
  std::string why = "stale";
  CHECK_FALSE(
      throttled(prober.platform(), prober.snapshot(), {0, 1, 2, 3, 4, 5}, true, 0.95, &why));
  CHECK(why.empty());
}

TEST_CASE("TX2: the text report names board, L4T, mode, clusters, GPU and zones") {
  const std::string text = to_text(probe(kTx2Tree));
  CHECK_THAT(text, Catch::Contains("quill (tegra186), Jetson"));
  CHECK_THAT(text, Catch::Contains("R32.7.1"));
  CHECK_THAT(text, Catch::Contains("MAXN (id 0)"));
  CHECK_THAT(text, Catch::Contains("a57 0,3-5; denver 1-2"));
  CHECK_THAT(text, Catch::Contains("cpu1       denver online, schedutil 2035.2 MHz"));
  CHECK_THAT(text, Catch::Contains("nvhost_podgov 1300.5 MHz (max 1300.5)"));
  CHECK_THAT(text, Catch::Contains("GPU-therm 39.0 C"));
}
