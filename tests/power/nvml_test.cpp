// NVML through dlopen, against a fake libnvidia-ml built from
// tests/fixtures/power/nvml/fake_nvml.c with the system C compiler. Skipped
// (with a warning) where no compiler for the target is at hand, e.g. under
// qemu in a cross build.
#include <catch2/catch.hpp>

#include <stdlib.h>  // mkdtemp

#include <cmath>
#include <cstdlib>
#include <string>
#include <vector>

#include "power/nvml.h"

using namespace edp::power;

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

TEST_CASE("nvml without the driver library is simply not found", "[nvml]") {
  std::vector<std::string> log;
  auto s = discover_nvml(&log, "libnvidia-ml-does-not-exist.so.1");
  CHECK_FALSE(s);
  REQUIRE(log.size() == 1);
  CHECK_THAT(log[0], Catch::Contains("not found"));
}
