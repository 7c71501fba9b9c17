// probe() against tests/fixtures/platform/x86-vm: a 4-vCPU QEMU guest with no
// cpufreq, no devfreq and no thermal zones. Nothing missing is an error.
#include <catch2/catch.hpp>

#include <cmath>

#include "platform/platform.h"
#include "support/fixtures.h"

using edp::testing::kX86Tree;
using namespace edp::platform;

namespace {}

TEST_CASE("x86 VM: the model comes from DMI and the board is not a Jetson") {
  const Platform p = probe(kX86Tree);
  CHECK(p.model == "Standard PC (Q35 + ICH9, 2009)");
  CHECK_FALSE(p.is_jetson());
  CHECK(p.soc.empty());
  CHECK(p.l4t_release.empty());
  CHECK(p.nvpmodel_id == -1);
  CHECK(p.nvpmodel_mode.empty());
}

TEST_CASE("x86 VM: CPUs without cpufreq have unknown governor and clocks") {
  const Platform p = probe(kX86Tree);
  REQUIRE(p.cpus.size() == 4);
  for (const auto& c : p.cpus) {
    CAPTURE(c.id);
    CHECK(c.online);
    CHECK(c.cluster == "x86");
    CHECK(c.model_name == "Intel(R) Xeon(R) CPU @ 2.20GHz");
    CHECK(c.governor.empty());
    CHECK(c.cur_khz == -1);
    CHECK(c.max_khz == -1);
  }
}

TEST_CASE("x86 VM: no GPU devfreq, EMC or thermal zones, and snapshots still work") {
  const Prober prober(kX86Tree);
  const Platform& p = prober.platform();
  CHECK(p.gpu_devfreq_path.empty());
  CHECK(p.gpu_cur_hz == -1);
  CHECK(p.emc_hz == -1);
  CHECK(p.thermal.empty());
  const Snapshot s = prober.snapshot();
  CHECK(s.cpu_cur_khz == std::vector<long>(4, -1));
  CHECK(s.gpu_cur_hz == -1);
  CHECK(std::isnan(s.max_temp_c));
  // Unknown clocks are never judged as throttled.
  CHECK_FALSE(throttled(p, s, {0, 1, 2, 3}, true));
  CHECK_THAT(to_text(p), Catch::Contains("no cpufreq"));
}
