// NVML through dlopen, against a fake libnvidia-ml built from
// tests/fixtures/power/nvml/fake_nvml.c with the system C compiler. Skipped
// (with a warning) where no compiler for the target is at hand, e.g. under
// qemu in a cross build.
#include <catch2/catch.hpp>

#include <dlfcn.h>
#include <stdlib.h>  // mkdtemp

#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "power/nvml.h"

using namespace edp::power;

namespace {

// The fake library built into a temporary folder, and opened once more by
// the test to reach its fake_nvml_* controls (the same loaded copy that
// discover_nvml gets). Declare it before the sensor so that it outlives it.
struct FakeNvml {
  std::string dir, lib;
  void* handle = nullptr;
  void (*set_energy_mj)(unsigned long long) = nullptr;
  void (*set_compute_capability)(unsigned int, int, int) = nullptr;

  FakeNvml() {
    char tmpl[] = "/tmp/edp_nvml_test_XXXXXX";
    dir = mkdtemp(tmpl);
    lib = dir + "/libnvidia-ml.so.1";
    const std::string cc = "cc -shared -fPIC -o '" + lib +
                           "' '" EDPBENCH_FIXTURES "/power/nvml/fake_nvml.c' 2>/dev/null";
    if (std::system(cc.c_str()) != 0) return;
    handle = ::dlopen(lib.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) return;
    set_energy_mj =
        reinterpret_cast<void (*)(unsigned long long)>(::dlsym(handle, "fake_nvml_set_energy_mj"));
    set_compute_capability = reinterpret_cast<void (*)(unsigned int, int, int)>(
        ::dlsym(handle, "fake_nvml_set_compute_capability"));
  }
  ~FakeNvml() {
    if (handle) ::dlclose(handle);
    std::system(("rm -rf '" + dir + "'").c_str());
  }
  bool ok() const { return set_energy_mj && set_compute_capability; }
};

}  // namespace

TEST_CASE("nvml prefers the energy counter and falls back to power", "[nvml]") {
  char tmpl[] = "/tmp/edp_nvml_test_XXXXXX";
  const std::string dir = mkdtemp(tmpl);
  const std::string lib = dir + "/libnvidia-ml.so.1";
  const std::string cc = "cc -shared -fPIC -o '" + lib +
                         "' '" EDPBENCH_FIXTURES "/power/nvml/fake_nvml.c' 2>/dev/null";
  if (std::system(cc.c_str()) != 0) {
    WARN("no C compiler to build the fake NVML; skipped");
    std::system(("rm -rf '" + dir + "'").c_str());
    return;
  }
  std::vector<std::string> log;
  auto s = discover_nvml(&log, lib);
  std::system(("rm -rf '" + dir + "'").c_str());
  if (!s) {
    WARN("the fake NVML could not be loaded (" << (log.empty() ? "" : log.back()) << ")");
    return;
  }
  REQUIRE(s->rails().size() == 2);
  CHECK(s->rails()[0].rail == "gpu0");
  CHECK(s->rails()[0].kind == ValueKind::energy_j);
  CHECK(s->rails()[1].rail == "gpu1");
  CHECK(s->rails()[1].kind == ValueKind::power_w);
  double v[2];
  std::string error;
  REQUIRE(s->read(v, &error) == 0);
  CHECK(v[0] == Approx(0.5));  // 500 mJ since discovery
  CHECK(v[1] == Approx(75.0));
  REQUIRE(s->read(v, &error) == 0);
  CHECK(v[0] == Approx(1.0));
  CHECK_THAT(log[0], Catch::Contains("gpu0 (Fake H100), total energy counter"));
  CHECK_THAT(log[1], Catch::Contains("gpu1 (Fake T4), power readings only"));
}

TEST_CASE("nvml: counter limit from the power limit, power timing from the architecture",
          "[nvml]") {
  FakeNvml fake;
  if (!fake.ok()) {
    WARN("the fake NVML could not be built or loaded; skipped");
    return;
  }
  fake.set_compute_capability(1, 8, 6);  // GA10x: nvmlDeviceGetPowerUsage is a 1 s mean
  std::vector<std::string> log;
  auto s = discover_nvml(&log, fake.lib);
  REQUIRE(s);
  REQUIRE(s->rails().size() == 2);
  CHECK(s->rails()[0].timing == Timing::counter);
  CHECK(s->rails()[0].max_power_w == Approx(1400));  // 2 x the 700 W enforced limit
  CHECK_THAT(log[0], Catch::Contains("plausibility limit 1400 W"));
  CHECK(s->rails()[1].timing == Timing::averaging);
  CHECK(s->rails()[1].averaging_s == 1.0);
  CHECK_THAT(log[1], Catch::Contains("1 s average"));

  fake.set_compute_capability(1, 8, 0);  // GA100 and older: instantaneous
  s.reset();
  s = discover_nvml(&log, fake.lib);
  REQUIRE(s);
  CHECK(s->rails()[1].timing == Timing::instantaneous);
  CHECK(s->rails()[1].max_power_w == 0);  // not a counter
}

TEST_CASE("nvml: a counter reset restarts the baseline without underflow", "[nvml]") {
  FakeNvml fake;
  if (!fake.ok()) {
    WARN("the fake NVML could not be built or loaded; skipped");
    return;
  }
  std::vector<std::string> log;
  auto s = discover_nvml(&log, fake.lib);  // reads 1000000 mJ
  REQUIRE(s);
  double v[2];
  std::string error;
  REQUIRE(s->read(v, &error) == 0);
  CHECK(v[0] == Approx(0.5));
  fake.set_energy_mj(100);  // driver reloaded: the counter starts again near zero
  REQUIRE(s->read(v, &error) == 0);
  CHECK(v[0] == Approx(0.5));  // not (100 - 1000000) as an unsigned difference
  CHECK(s->anomalies() == 1);
  CHECK_THAT(s->last_anomaly(), Catch::Contains("nvml: gpu0: counter reset from 1000500 to 100"));
  REQUIRE(s->read(v, &error) == 0);  // 600 mJ: counting again from the new baseline
  CHECK(v[0] == Approx(1.0));
  CHECK(s->anomalies() == 1);
}

TEST_CASE("nvml: a counter jump above the limit is refused", "[nvml]") {
  FakeNvml fake;
  if (!fake.ok()) {
    WARN("the fake NVML could not be built or loaded; skipped");
    return;
  }
  std::vector<std::string> log;
  auto s = discover_nvml(&log, fake.lib);
  REQUIRE(s);
  double v[2];
  std::string error;
  REQUIRE(s->read(v, &error) == 0);  // 1000500 mJ
  CHECK(v[0] == Approx(0.5));
  fake.set_energy_mj(1000000000000ULL);  // +1 GJ at once
  REQUIRE(s->read(v, &error) == 0);
  CHECK(v[0] == Approx(0.5));
  CHECK(s->anomalies() == 1);
  CHECK_THAT(s->last_anomaly(), Catch::Contains("glitch") && Catch::Contains("1400 W"));
  fake.set_energy_mj(1001500);
  REQUIRE(s->read(v, &error) == 0);
  CHECK(v[0] == Approx(1.5));
  CHECK(s->anomalies() == 1);
}

TEST_CASE("nvml without the driver library is simply not found", "[nvml]") {
  std::vector<std::string> log;
  auto s = discover_nvml(&log, "libnvidia-ml-does-not-exist.so.1");
  CHECK_FALSE(s);
  REQUIRE(log.size() == 1);
  CHECK_THAT(log[0], Catch::Contains("not found"));
}
