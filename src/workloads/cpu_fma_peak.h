// The CPU half of fma_peak (DESIGN §2.3): what one core's FMA units can do
// when nothing but register-resident FMAs is in flight.
//
// Each worker keeps kFmaAccumulators independent SIMD accumulators and runs
// acc = acc * m + c on all of them per round. Independent chains hide the FMA
// latency: the number needed is latency x FMA pipes (Cortex-A57: 10 x 1 for a
// 128-bit FMLA, ARM UAN 0015B §3.14; Cortex-A78: 4 x 2, Arm Cortex-A78 SWOG
// §3.15; Skylake-SP and Zen 4/5: 4 x 2). Twelve covers all of them and still
// fits the register file with m and c (16 ymm on AVX2, 32 v/zmm registers on
// AArch64 and AVX-512).
//
// The vector width is the build's: 512-bit with __AVX512F__, 256-bit with
// __AVX2__ and __FMA__, 128-bit otherwise (NEON with FMLA on AArch64; SSE
// multiply + add, without FMA, on a baseline x86-64 build such as a package).
// cpu_fma_peak.cpp is compiled with -ffp-contract=fast so that acc * m + c is
// one fused instruction wherever the ISA has one; the disassembly check is in
// docs/ops.md.
#pragma once

#include <cstdint>
#include <string>

namespace edp {
namespace cpu {

constexpr int kFmaAccumulators = 12;

// FLOPs one worker performs in `rounds` rounds (2 per lane per FMA).
double fma_peak_flop_per_worker(int64_t rounds);
// Runs the chains on the calling thread; returns their sum.
float fma_peak_worker(int64_t rounds);
// "avx512 (16 lanes, fma)", "neon (4 lanes, fma)", ...
std::string fma_peak_isa();
// Lanes per vector in this build.
int fma_peak_lanes();

}  // namespace cpu
}  // namespace edp
