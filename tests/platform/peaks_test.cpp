// Nominal peaks against the fake TX2 and x86 trees, with hand-computed
// answers, and the roofline and percent-of-peak helpers.
#include <catch2/catch.hpp>

#include <cmath>

#include "platform/core_clock.h"
#include "platform/peaks.h"
#include "support/fixtures.h"

using edp::testing::kTx2Tree;
using edp::testing::kX86Tree;
using namespace edp::platform;
using Catch::Detail::Approx;

namespace {}  // namespace

TEST_CASE("TX2 CPU peak: A57 8 and Denver 2 16 FLOP/cycle at 2035.2 MHz") {
  const Platform p = probe(kTx2Tree);
  // 4 A57 x (1 FMA x 4 lanes x 2) x 2.0352 GHz = 65.1264 GFLOP/s
  const Peak a57 = cpu_peak(p, {0, 3, 4, 5});
  CHECK(a57.flops_nominal == Approx(4 * 8 * 2.0352e9));
  CHECK(a57.flops_at_clock == Approx(4 * 8 * 2.0352e9));
  // 2 Denver x (2 FMA x 4 lanes x 2) x 2.0352 GHz: the same 65.1264 GFLOP/s
  const Peak denver = cpu_peak(p, {1, 2});
  CHECK(denver.flops_nominal == Approx(2 * 16 * 2.0352e9));
  const Peak all = cpu_peak(p, {0, 1, 2, 3, 4, 5});
  CHECK(all.flops_nominal == Approx(130.2528e9));
  // 128-bit LPDDR4 at 1866 MHz: 16 bytes x 1.866e9 x 2 = 59.712 GB/s
  CHECK(all.bytes_per_s == Approx(59.712e9));
  CHECK(all.bytes_per_s_at_clock == Approx(59.712e9));  // EMC read at 1866 MHz
  CHECK(all.source.find("DS-08392") != std::string::npos);
  CHECK(all.source.find("UAN 0015B") != std::string::npos);
}

TEST_CASE("TX2 GPU peak: 2 x 256 CUDA cores x 1300.5 MHz") {
  const Platform p = probe(kTx2Tree);
  const Peak g = gpu_peak(p, {});
  CHECK(g.flops_nominal == Approx(2 * 256 * 1.3005e9));  // 665.856 GFLOP/s
  CHECK(g.flops_at_clock == Approx(2 * 256 * 1.3005e9));
  CHECK(g.bytes_per_s == Approx(59.712e9));
}

TEST_CASE("a lower clock read lowers the at-clock peak, not the nominal one") {
  Platform p = probe(kTx2Tree);
  p.cpus[0].cur_khz = 345600;
  p.gpu_cur_hz = 114750000;
  const Peak c = cpu_peak(p, {0});
  CHECK(c.flops_nominal == Approx(8 * 2.0352e9));
  CHECK(c.flops_at_clock == Approx(8 * 345.6e6));
  const Peak g = gpu_peak(p, {});
  CHECK(g.flops_at_clock == Approx(2 * 256 * 114.75e6));
  CHECK(g.flops_nominal == Approx(2 * 256 * 1.3005e9));
}

TEST_CASE("x86 VM CPU peak: Skylake-SP AVX-512, 2 FMA x 16 lanes, clocks from cpuinfo") {
  const Platform p = probe(kX86Tree);
  const Peak c = cpu_peak(p, {0, 1, 2, 3});
  // 4 x 64 FLOP/cycle x 2.2 GHz ("@ 2.20GHz") = 563.2 GFLOP/s nominal,
  // x 2200.172 MHz ("cpu MHz") at the clock read.
  CHECK(c.flops_nominal == Approx(563.2e9));
  CHECK(c.flops_at_clock == Approx(4 * 64 * 2200.172e6));
  CHECK(std::isnan(c.bytes_per_s));  // no board table entry: measure copy
  CHECK(c.source.find("Xeon Scalable") != std::string::npos);
}

TEST_CASE("x86 cores by ISA and microarchitecture") {
  auto info = [](const char* vendor, int family, int model, const char* flags) {
    return std::string("vendor_id\t: ") + vendor + "\ncpu family\t: " + std::to_string(family) +
           "\nmodel\t\t: " + std::to_string(model) + "\nflags\t\t: " + flags + "\n";
  };
  CHECK(core_fma("x86", info("AuthenticAMD", 26, 2, "sse avx fma avx2 avx512f")).flop_per_cycle() ==
        64);  // Zen 5
  CHECK(core_fma("x86", info("AuthenticAMD", 25, 97, "avx fma avx2 avx512f")).flop_per_cycle() ==
        32);  // Zen 4
  CHECK(core_fma("x86", info("AuthenticAMD", 23, 49, "avx fma avx2")).flop_per_cycle() == 32);
  CHECK(core_fma("x86", info("AuthenticAMD", 23, 1, "avx fma avx2")).flop_per_cycle() == 16);
  CHECK(core_fma("x86", info("GenuineIntel", 6, 60, "avx fma avx2")).flop_per_cycle() == 32);
  CHECK(core_fma("x86", info("GenuineIntel", 6, 140, "avx fma avx2 avx512f")).flop_per_cycle() ==
        32);  // Tiger Lake: one 512-bit FMA
  CHECK(core_fma("x86", info("GenuineIntel", 6, 42, "sse avx")).flop_per_cycle() == 16);
  CHECK(core_fma("x86", info("GenuineIntel", 6, 23, "sse sse2")).flop_per_cycle() == 8);
  CHECK(core_fma("carmel").flop_per_cycle() == 16);
  CHECK(core_fma("a78ae").flop_per_cycle() == 16);
  CHECK(core_fma("riscv").fma_units == 0);
}

TEST_CASE("a GPU outside the board table comes from the CUDA device facts") {
  const Platform p = probe(kX86Tree);
  const std::map<std::string, std::string> h100{{"gpu_sm_count", "132"},
                                                {"gpu_compute_capability", "9.0"},
                                                {"gpu_clock_sm_max_mhz", "1980"},
                                                {"gpu_memory_bus_width_bits", "5120"},
                                                {"gpu_clock_mem_max_mhz", "2619"}};
  const Peak g = gpu_peak(p, h100);
  CHECK(g.flops_nominal == Approx(2.0 * 132 * 128 * 1.98e9));
  CHECK(std::isnan(g.flops_at_clock));  // no devfreq on a discrete GPU
  CHECK(g.bytes_per_s == Approx(5120 / 8.0 * 2.619e9 * 2));
  CHECK(std::isnan(gpu_peak(p, {}).flops_nominal));
}

TEST_CASE("Jetson boards are told apart by SoC and model") {
  Platform p;
  p.soc = "tegra194";
  p.model = "NVIDIA Jetson Xavier NX Developer Kit";
  CHECK(gpu_peak(p, {}).flops_nominal == Approx(2 * 384 * 1.1e9));
  p.model = "Jetson-AGX";
  CHECK(gpu_peak(p, {}).flops_nominal == Approx(2 * 512 * 1.377e9));
  CHECK(board_bytes_per_s(p) == Approx(256 / 8.0 * 2133e6 * 2));
  p.soc = "tegra234";
  p.model = "NVIDIA Jetson Orin Nano Developer Kit";
  CHECK(gpu_peak(p, {}).flops_nominal == Approx(2 * 1024 * 625e6));
  p.soc = "tegra210";
  p.model = "NVIDIA Jetson Nano Developer Kit";
  CHECK(gpu_peak(p, {}).flops_nominal == Approx(2 * 128 * 921.6e6));
  CHECK(board_bytes_per_s(p) == Approx(25.6e9));
}

TEST_CASE("roofline: below the ridge point is memory-bound") {
  // TX2 CPU: ridge at 130.25 / 59.71 = 2.18 FLOP/byte.
  CHECK(roofline_bound(1, 12, 130.25e9, 59.71e9) == "memory");  // add
  CHECK(roofline_bound(2.0 * 1024 * 1024 * 1024, 12.0 * 1024 * 1024, 130.25e9, 59.71e9) ==
        "compute");                                               // gemm 1024
  CHECK(roofline_bound(1e9, 0, 130.25e9, 59.71e9) == "compute");  // fma_peak
  CHECK(roofline_bound(1, 12, NAN, 59.71e9).empty());
  CHECK(percent_of_peak(50e9, 200e9) == Approx(25.0));
  CHECK(std::isnan(percent_of_peak(50e9, 0)));
  CHECK(std::isnan(percent_of_peak(50e9, NAN)));
}

TEST_CASE("cpu_peak at a measured clock replaces the clock read, not the nominal one") {
  const Platform p = probe(kTx2Tree);
  const Peak a57 = cpu_peak(p, {0, 3, 4, 5}, 1.0e9);
  CHECK(a57.flops_at_clock == Approx(4 * 8 * 1.0e9));
  CHECK(a57.flops_nominal == Approx(4 * 8 * 2.0352e9));
  CHECK_THAT(a57.source, Catch::Contains("clock measured: 1 GHz"));
  CHECK(std::isnan(cpu_peak(p, {}, 1.0e9).flops_at_clock));
}

TEST_CASE("measure_core_clock_hz reads a plausible clock on this machine") {
  // A dependent-addition chain: one addition per cycle. Any core this runs
  // on clocks between 100 MHz and 7 GHz; a folded chain (the compiler
  // summing the additions) would read tens of GHz, a broken timer zero.
  const double hz = measure_core_clock_hz();
  CHECK(hz > 1e8);
  CHECK(hz < 7e9);
}
