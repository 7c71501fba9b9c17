// The operator workloads (DESIGN §2.3): counts per op, the factory's errors,
// the MLP's GEMM shapes, the cold variant and the flush size.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <string>

#include "support/backends.h"
#include "workloads/cache_flush.h"
#include "workloads/cpu_backend.h"
#include "workloads/op_workloads.h"
#include "workloads/reference_backend.h"

using edp::testing::cpu2;
using namespace edp;

namespace {

OpSpec spec(const std::string& op, int64_t bytes) {
  OpSpec s;
  s.op = op;
  s.bytes = bytes;
  return s;
}

}  // namespace

TEST_CASE("element-wise ops count FLOP and bytes per element as documented", "[workloads][ops]") {
  auto be = make_reference_backend();
  struct Row {
    const char* op;
    double flop, bytes;
  };
  // 1.2 MB of working set: 100000 elements of add (3 arrays of 4 bytes).
  const Row rows[] = {{"copy", 0, 8},   {"add", 1, 12},    {"mul", 1, 12},
                      {"scalar", 1, 8}, {"sigmoid", 4, 8}, {"tanh", 1, 8}};
  for (const Row& r : rows) {
    INFO(r.op);
    const int64_t n = 100000;
    auto w = make_op_workload(spec(r.op, static_cast<int64_t>(n * r.bytes)), *be);
    CHECK(w->name() == r.op);
    CHECK(w->flop_per_step() == r.flop * n);
    CHECK(w->bytes_per_step() == r.bytes * n);
    CHECK(std::isnan(w->result()));
    w->step();
  }
}

TEST_CASE("bytes is the working set: add at 12 MB has 1 M elements", "[workloads][ops]") {
  auto be = make_reference_backend();
  auto w = make_op_workload(spec("add", 12000000), *be);
  CHECK(w->flop_per_step() == 1e6);
  CHECK(w->bytes_per_step() == 12e6);
  // Rounded down to whole elements.
  auto v = make_op_workload(spec("add", 12000011), *be);
  CHECK(v->flop_per_step() == 1000000);
}

TEST_CASE("gemm counts 2mnk FLOP and the three matrices' bytes", "[workloads][ops]") {
  auto be = make_reference_backend();
  OpSpec s;
  s.op = "gemm";
  s.n = 64;
  auto sq = make_op_workload(s, *be);
  CHECK(sq->flop_per_step() == 2.0 * 64 * 64 * 64);
  CHECK(sq->bytes_per_step() == 4.0 * 3 * 64 * 64);
  s.m = 8;
  s.n = 6;
  s.k = 5;
  s.trans_a = true;
  s.trans_b = true;
  auto t = make_op_workload(s, *be);
  CHECK(t->flop_per_step() == 2.0 * 8 * 6 * 5);
  CHECK(t->bytes_per_step() == 4.0 * (8 * 5 + 5 * 6 + 8 * 6));
  t->step();
}

TEST_CASE("the MLP's GEMMs add up to DESIGN's 4 N D_in H + 6 N H D_out", "[workloads][ops]") {
  const MlpShape small{64, 15000, 100, 150};
  double flop = 0;
  for (const auto& s : mlp_gemm_specs(small)) flop += 2.0 * s.m * s.n * s.k;
  CHECK(flop == 4.0 * 64 * 15000 * 100 + 6.0 * 64 * 100 * 150);
  // Every shape builds (and the transposes fit) on a tiny MLP.
  auto be = make_reference_backend();
  for (const auto& s : mlp_gemm_specs(MlpShape{4, 6, 5, 3})) make_op_workload(s, *be)->step();
}

TEST_CASE("every op runs on the reference and cpu backends with the same counts",
          "[workloads][ops]") {
  auto ref = make_reference_backend();
  auto cpu = cpu2();
  for (const auto& op : op_names()) {
    INFO(op);
    OpSpec s = spec(op, 1 << 20);
    s.n = 32;
    s.rounds = 100;
    auto r = make_op_workload(s, *ref);
    auto c = make_op_workload(s, *cpu);
    r->step();
    c->step();
    r->reset();
    if (op != "fma_peak") {
      CHECK(r->flop_per_step() == c->flop_per_step());
      CHECK(r->bytes_per_step() == c->bytes_per_step());
    } else {
      CHECK(c->flop_per_step() > r->flop_per_step());  // vectorised and threaded
      CHECK(c->bytes_per_step() == 0);
    }
  }
}

TEST_CASE("unknown ops and sizes that make no step are errors that say what is valid",
          "[workloads][ops]") {
  auto be = make_reference_backend();
  try {
    make_op_workload(spec("dot", 1024), *be);
    FAIL("no exception");
  } catch (const std::invalid_argument& e) {
    const std::string what = e.what();
    CHECK(what.find("dot") != std::string::npos);
    CHECK(what.find("copy, add, mul, scalar, sigmoid, tanh, gemm, fma_peak, flush") !=
          std::string::npos);
  }
  CHECK_THROWS_AS(make_op_workload(spec("add", 11), *be), std::invalid_argument);
  CHECK_THROWS_AS(make_op_workload(spec("gemm", 0), *be), std::invalid_argument);
  CHECK_THROWS_AS(element_counts("gemm"), std::invalid_argument);
}

TEST_CASE("cold ops flush before each step and keep the op's own counts", "[workloads][ops]") {
  auto be = make_reference_backend();
  OpSpec s = spec("add", 1200);
  s.cold = true;
  auto w = make_op_workload(s, *be);
  CHECK(w->flop_per_step() == 100);
  CHECK(w->bytes_per_step() == 1200);
  w->step();
  auto flush = make_op_workload(spec("flush", 0), *be);
  CHECK(flush->bytes_per_step() == 2.0 * last_level_cache_bytes());
  CHECK(flush->flop_per_step() == 0);
  auto sized = make_op_workload(spec("flush", 4096), *be);
  CHECK(sized->bytes_per_step() == 4096);
}

TEST_CASE("the last-level cache size comes from cpu0's highest cache level", "[workloads][ops]") {
  char tmpl[] = "/tmp/edp-cache-XXXXXX";
  const std::string root = ::mkdtemp(tmpl);
  const std::string dir = root + "/sys/devices/system/cpu/cpu0/cache";
  auto put = [&](int index, const char* level, const char* size) {
    const std::string d = dir + "/index" + std::to_string(index);
    REQUIRE(std::system(("mkdir -p " + d).c_str()) == 0);
    std::ofstream(d + "/level") << level << "\n";
    std::ofstream(d + "/size") << size << "\n";
  };
  CHECK(last_level_cache_bytes(root) == kFallbackCacheBytes);  // nothing there
  put(0, "1", "32K");  // TX2 A57: L1d 32K, L1i 48K, L2 2048K
  put(1, "1", "48K");
  put(2, "2", "2048K");
  CHECK(last_level_cache_bytes(root) == 2048 * 1024);
  put(3, "3", "4M");
  CHECK(last_level_cache_bytes(root) == 4 << 20);
  CHECK(std::system(("rm -rf " + root).c_str()) == 0);
}
