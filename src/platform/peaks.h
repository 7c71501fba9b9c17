// Nominal peaks of a device (DESIGN §9.1): the FLOP rate from a documented
// per-core or per-GPU table and a clock, and the memory bandwidth from a board
// table. Every table entry cites its source in peaks.cpp. The measured
// ceilings (fma_peak, copy) come from the op workloads; the ops study reports
// both.
//
//   CPU:  flops = FMA units x SIMD lanes (fp32) x 2 x cores x clock
//   GPU:  flops = 2 x CUDA cores x clock
//
// "nominal" uses the nominal clock: the CPU's scaling_max_freq (the policy
// cap the governor may reach; cpuinfo_max_freq when unset; the "@ x.xxGHz"
// of an x86 model name when there is no cpufreq), the GPU devfreq max_freq
// or the CUDA-reported maximum SM clock. "at_clock" uses the clock read at
// the time: scaling_cur_freq per CPU ("cpu MHz" of /proc/cpuinfo without
// cpufreq), the devfreq cur_freq. Unknown values are NaN; `source` says
// which table rows and clocks were used, for context.json and the notes.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "platform/platform.h"

namespace edp::platform {

struct Peak {
  double flops_nominal = NAN;         // FLOP/s at the nominal clock
  double flops_at_clock = NAN;        // FLOP/s at the clock read at the time
  double bytes_per_s = NAN;           // board table (nominal memory clock)
  double bytes_per_s_at_clock = NAN;  // same bus at the memory clock read (EMC), when known
  std::string source;
};

// One core's fp32 throughput: FMA units x SIMD lanes, each FMA 2 FLOP.
struct CoreFma {
  int fma_units = 0;  // FMA instructions per cycle
  int lanes = 0;      // fp32 lanes per instruction
  std::string source;
  int flop_per_cycle() const { return 2 * fma_units * lanes; }
};

// The core table for a Platform cluster name ("a57", "denver", "carmel",
// "a78ae") or, for "x86", the ISA and microarchitecture from the cpuinfo
// text (vendor_id, cpu family, model, flags). fma_units == 0 when unknown.
CoreFma core_fma(const std::string& cluster, const std::string& cpuinfo_text = "");

// The peak of `cpus` (CPU ids of p.cpus) together. Reads
// <p.sysfs_root>/proc/cpuinfo for the x86 ISA and for clocks without cpufreq.
// `clock_hz`, when given (measure_core_clock_hz, core_clock.h), is the clock
// of every one of `cpus` for flops_at_clock, in place of the one read.
Peak cpu_peak(const Platform& p, const std::vector<int>& cpus, double clock_hz = NAN);

// cpu_peak for a run in progress: where cpufreq gives no current clock for
// one of `cpus` (VMs and containers, whose "cpu MHz" is the TSC rate), the
// clock of the calling thread's core is measured (core_clock.h, ~50 ms), so
// call it from a thread pinned to `cpus`. With cpufreq, cpu_peak as is.
Peak cpu_peak_now(const Platform& p, const std::vector<int>& cpus);

// The peak of the GPU: Jetson boards from their table (cores, clocks from
// devfreq); other GPUs from cuda_device_info() (gpu_sm_count x cores per SM
// of gpu_compute_capability, gpu_clock_sm_max_mhz, memory bus width x
// gpu_clock_mem_max_mhz x 2).
Peak gpu_peak(const Platform& p, const std::map<std::string, std::string>& cuda_info);

// The board's DRAM bandwidth (shared by CPU and GPU on a Jetson); NaN and an
// empty source when the board is not in the table.
double board_bytes_per_s(const Platform& p, std::string* source = nullptr);

// The roofline: "memory" when the op's arithmetic intensity (flop / bytes)
// is below the ridge point peak_flops / peak_bytes_per_s, else "compute".
// bytes == 0 (fma_peak) is compute-bound; "" when a peak is unknown.
std::string roofline_bound(double flop, double bytes, double peak_flops, double peak_bytes_per_s);

// 100 x achieved / peak; NaN when the peak is unknown or not positive.
double percent_of_peak(double achieved, double peak);

}  // namespace edp::platform
