// Sizes against memory (issue 20 item 3): the limit from /proc/meminfo and
// the process's cgroup (fixtures in the kernel's own formats: proc(5),
// Documentation/admin-guide/cgroup-v2.rst memory.max/memory.current,
// cgroup-v1/memory.rst memory.limit_in_bytes/usage_in_bytes), and the bytes
// from the workloads' own tensor lists.
#include <catch2/catch.hpp>

#include <sys/stat.h>

#include "bench/studies/config_schema.h"
#include "bench/studies/memory_check.h"
#include "support/process.h"
#include "workloads/mlp_stages.h"

using namespace edp::bench;

namespace {
const std::string kMemoryFixtures = EDPBENCH_FIXTURES "/bench/memory";
}

TEST_CASE("memory limit: MemAvailable, less in a cgroup v2 with memory.max", "[memory]") {
  const MemoryLimit m = memory_limit(kMemoryFixtures + "/cgroup-v2");
  // MemAvailable 6291456 kB = 6 GiB; the service's cgroup: 2 GiB - 512 MiB.
  CHECK(m.bytes == 2147483648LL - 536870912LL);
  CHECK(m.source ==
        "cgroup /system.slice/edpbench.service: limit 2048.0 MiB less 512.0 MiB in use");
}

TEST_CASE("memory limit: cgroup v1, an unlimited parent is no limit", "[memory]") {
  const MemoryLimit m = memory_limit(kMemoryFixtures + "/cgroup-v1");
  CHECK(m.bytes == 1073741824LL - 268435456LL);
  CHECK_THAT(m.source, Catch::StartsWith("cgroup /user.slice/session-3.scope"));
}

TEST_CASE("memory limit: only meminfo, or nothing", "[memory]") {
  const std::string root = edp::testing::temp_dir("meminfo");
  CHECK(memory_limit(root).bytes < 0);
  ::mkdir((root + "/proc").c_str(), 0755);
  edp::testing::write_text(root + "/proc/meminfo",
                           "MemTotal:        8039788 kB\nMemFree:          512344 kB\n"
                           "MemAvailable:    1048576 kB\nBuffers:           52196 kB\n");
  const MemoryLimit m = memory_limit(root);
  CHECK(m.bytes == 1073741824LL);
  CHECK(m.source == "MemAvailable in /proc/meminfo");
}

TEST_CASE("an item's bytes are its workload's own tensor list", "[memory]") {
  const SizeSpec s{"s", 64, 1000, 100, 10};
  for (const char* w : {"tensors", "autograd", "custom_relu"}) {
    const auto tensors = edp::mlp_memory_computed(w, {64, 1000, 100, 10});
    // x, y, w1, w2 also live as the host copies of the initial data.
    const double init = 4.0 * (64 * 1000 + 64 * 10 + 1000 * 100 + 100 * 10);
    CHECK(mlp_item_bytes(w, s) == static_cast<int64_t>(edp::mlp_memory_total(tensors) + init));
  }
}

TEST_CASE("sizes beyond the limit are problems naming item, bytes, limit and place", "[memory]") {
  const Config c = parse_config(
      "studies: [mlp, batch]\nworkloads: [tensors]\n"
      "sizes:\n  small: {n: 8, d_in: 100, h: 10, d_out: 2}\n"
      "  wide: {n: 8, d_in: 1000000, h: 100, d_out: 2}\n"
      "batch: {sizes: [small], n: [1, 1000000]}\n"
      "devices: [{kind: cpu}, {kind: gpu}]\n",
      "m.yaml");
  MemoryLimit limit;
  limit.bytes = 256 << 20;
  limit.source = "test";
  // A discrete GPU has its own memory: only the CPU's items are checked.
  const auto p = memory_problems(c, limit, false);
  REQUIRE(p.size() == 2);
  const int64_t wide = mlp_item_bytes("tensors", c.sizes[1]);
  CHECK_THAT(p[0], Catch::StartsWith("m.yaml:5:3: mlp tensors size wide (N=8) on cpu needs " +
                                     std::to_string(wide + kRunAllowanceLargeBytes) +
                                     " bytes ("));  // w1: 400 MB
  CHECK_THAT(p[0], Catch::EndsWith(" MiB for the run itself), more than the 268435456 bytes "
                                   "(256.0 MiB) this process may use (test); make the size "
                                   "smaller or free memory"));
  // The batch study at its largest N.
  CHECK_THAT(p[1], Catch::StartsWith("m.yaml:4:3: batch tensors size small (N=1000000) on cpu"));
  // A Jetson's GPU shares the DRAM: its items count too.
  CHECK(memory_problems(c, limit, true).size() == 4);
  // Within the limit, or no limit known: nothing.
  limit.bytes = int64_t{1} << 40;
  CHECK(memory_problems(c, limit, true).empty());
  limit.bytes = -1;
  CHECK(memory_problems(c, limit, true).empty());
}
