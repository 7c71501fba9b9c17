#include "platform/peaks.h"

#include <cmath>
#include <cstdlib>
#include <sstream>

#include "common/text.h"
#include "platform/boards.h"
#include "platform/core_clock.h"
#include "platform/sysfs.h"

namespace edp::platform {

namespace {

// ---- /proc/cpuinfo ----------------------------------------------------------

// Value of the first "key : value" line of the cpuinfo text; "" when absent.
std::string cpuinfo_field(const std::string& text, const std::string& key) {
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    if (trim(line.substr(0, colon)) == key) return trim(line.substr(colon + 1));
  }
  return "";
}

bool has_flag(const std::string& flags, const std::string& flag) {
  std::istringstream in(flags);
  std::string f;
  while (in >> f)
    if (f == flag) return true;
  return false;
}

// Intel's AVX-512 server cores (Xeon Scalable: Skylake-SP/Cascade Lake 85,
// Ice Lake-SP 106/108, Sapphire Rapids 143, Emerald Rapids 207) have two
// 512-bit FMA units on Gold and Platinum parts; client AVX-512 cores (Ice
// Lake, Tiger Lake, Rocket Lake) have one. Intel 64 and IA-32 Architectures
// Optimization Reference Manual (248966-046), §2.2 and §17.20 ("Skylake
// Server microarchitecture ... two FMA units on port 0/1 fused and port 5").
bool intel_server_avx512(int model) {
  return model == 85 || model == 106 || model == 108 || model == 143 || model == 207;
}

CoreFma x86_core(const std::string& cpuinfo) {
  const std::string flags = cpuinfo_field(cpuinfo, "flags");
  const std::string vendor = cpuinfo_field(cpuinfo, "vendor_id");
  const int family = std::atoi(cpuinfo_field(cpuinfo, "cpu family").c_str());
  const int model = std::atoi(cpuinfo_field(cpuinfo, "model").c_str());
  const bool avx512 = has_flag(flags, "avx512f");
  const bool fma = has_flag(flags, "fma");
  const bool avx = has_flag(flags, "avx");
  if (vendor == "AuthenticAMD") {
    // Software Optimization Guide for the AMD Zen5 Microarchitecture (58455,
    // §2.11): four 512-bit FP pipes, two of them FMA, on desktop and server
    // parts (mobile Zen 5 keeps a 256-bit datapath: counted here as server).
    if (family == 26 && avx512) return {2, 16, "AMD 58455 (Zen 5): 2 x 512-bit FMA"};
    // Software Optimization Guide for AMD Family 19h (56665, §2.11): Zen 4
    // executes AVX-512 as two 256-bit halves on two FMA pipes; Zen 3 has two
    // 256-bit FMA pipes.
    if (family == 25) return {2, 8, "AMD 56665 (Zen 3/4): 2 x 256-bit FMA"};
    // Software Optimization Guide for AMD Family 17h Models 30h and Greater
    // (56305, §2.11): Zen 2 has two 256-bit FMA pipes; Zen/Zen+ (models
    // below 30h, AMD 55723 §2.11) two 128-bit FMA pipes.
    if (family == 23 && model >= 0x30) return {2, 8, "AMD 56305 (Zen 2): 2 x 256-bit FMA"};
    if (family == 23) return {2, 4, "AMD 55723 (Zen 1): 2 x 128-bit FMA"};
  }
  if (vendor == "GenuineIntel" && family == 6) {
    if (avx512 && intel_server_avx512(model))
      return {2, 16, "Intel 248966 (Xeon Scalable): 2 x 512-bit FMA"};
    if (avx512) return {1, 16, "Intel 248966 (client AVX-512): 1 x 512-bit FMA"};
    // Haswell and later (Intel 248966 §2.4 onwards): FMA on ports 0 and 1.
    if (fma) return {2, 8, "Intel 248966 (Haswell and later): 2 x 256-bit FMA"};
  }
  // Unknown microarchitecture: the ISA alone, one FMA unit of its width.
  if (avx512) return {1, 16, "x86 avx512f, FMA units unknown: 1 assumed"};
  if (fma) return {1, 8, "x86 avx2/fma, FMA units unknown: 1 assumed"};
  // No FMA (Sandy Bridge and earlier, SSE-only builds): one multiply and one
  // add per cycle count as one "FMA" of 2 FLOP. Intel 248966 §2.6 (Sandy
  // Bridge: 256-bit FP multiply on port 0, add on port 1).
  if (avx) return {1, 8, "x86 avx without fma: 1 mul + 1 add x 256-bit"};
  return {1, 4, "x86 sse: 1 mul + 1 add x 128-bit"};
}

// ---- board table (platform/boards.h) ---------------------------------------

using Board = GpuFacts;

// The GPU/memory variant of the board the platform was identified as (by
// model, compatible or, for peaks, by SoC alone): the first row whose model
// substring the model contains.
const Board* find_board(const Platform& p) {
  const BoardMatch m = identify_board(p.model, p.compatible, p.soc);
  if (!m.board) return nullptr;
  const std::string model = ascii_lower(p.model);
  for (const Board& g : m.board->gpu)
    if (!*g.model_match || model.find(g.model_match) != std::string::npos) return &g;
  return nullptr;
}

double board_bytes(const Board& b, double dram_hz) { return b.bus_bits / 8.0 * dram_hz * 2.0; }

// CUDA cores per SM by compute capability: CUDA C++ Programming Guide,
// "Arithmetic Instructions" throughput table (32-bit floating-point add,
// multiply, multiply-add results per clock cycle per multiprocessor).
int cores_per_sm(const std::string& cc) {
  if (cc == "5.0" || cc == "5.2" || cc == "5.3") return 128;
  if (cc == "6.0") return 64;
  if (cc == "6.1" || cc == "6.2") return 128;
  if (cc == "7.0" || cc == "7.2" || cc == "7.5") return 64;
  if (cc == "8.0") return 64;
  if (cc == "8.6" || cc == "8.7" || cc == "8.9" || cc == "9.0") return 128;
  if (cc.rfind("10.", 0) == 0 || cc.rfind("12.", 0) == 0) return 128;
  return 0;
}

double to_double(const std::map<std::string, std::string>& m, const std::string& key) {
  const auto it = m.find(key);
  if (it == m.end() || it->second.empty()) return NAN;
  char* end = nullptr;
  const double v = std::strtod(it->second.c_str(), &end);
  return end == it->second.c_str() ? NAN : v;
}

// "Intel(R) Xeon(R) CPU @ 2.20GHz" -> 2.2e9; NaN without "@".
double model_name_hz(const std::string& name) {
  const auto at = name.rfind('@');
  if (at == std::string::npos) return NAN;
  const double ghz = std::atof(name.c_str() + at + 1);
  return ghz > 0 ? ghz * 1e9 : NAN;
}

std::string format_ghz(double hz) {
  std::ostringstream s;
  s.precision(4);
  s << hz / 1e9 << " GHz";
  return s.str();
}

}  // namespace

CoreFma core_fma(const std::string& cluster, const std::string& cpuinfo_text) {
  // Cortex-A57 Software Optimization Guide (ARM UAN 0015B, §3.14 "ASIMD
  // floating-point instructions"): a Q-form FMLA issues once per cycle (it
  // occupies both FP pipes, F0 and F1): one 128-bit FMA per cycle.
  if (cluster == "a57") return {1, 4, "ARM UAN 0015B (Cortex-A57): 1 x 128-bit FMLA/cycle"};
  // Denver: 2 of its 7 issue ports are 128-bit FP/NEON units (Boggs et al.,
  // "Denver: NVIDIA's First 64-bit ARM Processor", IEEE Micro 35(2), 2015;
  // Hot Chips 26). NVIDIA published nothing further for Denver 2 (TX2): the
  // Denver 1 figure is assumed.
  if (cluster == "denver")
    return {2, 4,
            "Boggs et al., IEEE Micro 2015 (Denver): 2 x 128-bit FP/NEON, assumed for Denver 2"};
  // Carmel (Xavier): NVIDIA publishes a 10-wide core with full ASIMD (Jetson
  // AGX Xavier data sheet DS-09654) but no FMA count; two 128-bit units, as
  // Denver, are assumed.
  if (cluster == "carmel")
    return {2, 4, "DS-09654 (Carmel): FMA units unpublished, 2 x 128-bit assumed"};
  // Arm Cortex-A78AE Core Software Optimization Guide (ASIMD FP fused
  // multiply-add, Q-form: throughput 2, pipelines V0 and V1; as Cortex-A78,
  // PJDOC-1505342170-538455).
  if (cluster == "a78ae" || cluster == "a78")
    return {2, 4, "Arm Cortex-A78AE SWOG: 2 x 128-bit FMLA/cycle"};
  if (cluster == "x86") return x86_core(cpuinfo_text);
  return {0, 0, "no FMA table entry for cluster '" + cluster + "'"};
}

Peak cpu_peak(const Platform& p, const std::vector<int>& cpus, double clock_hz) {
  Peak peak;
  const SysfsRoot root(p.sysfs_root);
  const std::string cpuinfo = root.read("/proc/cpuinfo").value_or("");
  // Without cpufreq (VMs), the kernel's "cpu MHz" is the clock read and the
  // model name's "@ x GHz" the nominal one.
  const double cpuinfo_hz = std::atof(cpuinfo_field(cpuinfo, "cpu MHz").c_str()) * 1e6;
  double nominal = 0, at_clock = 0;
  bool nominal_known = true, at_clock_known = true;
  std::map<std::string, int> per_cluster;
  std::string rows;
  for (int id : cpus) {
    const int i = p.cpu_index(id);
    if (i < 0) {
      nominal_known = at_clock_known = false;
      continue;
    }
    const CpuInfo& c = p.cpus[static_cast<size_t>(i)];
    const CoreFma core = core_fma(c.cluster, cpuinfo);
    if (core.fma_units == 0) {
      nominal_known = at_clock_known = false;
      if (rows.find(core.source) == std::string::npos)
        rows += (rows.empty() ? "" : "; ") + core.source;
      continue;
    }
    if (per_cluster[c.cluster]++ == 0)
      rows += (rows.empty() ? "" : "; ") + c.cluster + ": " +
              std::to_string(core.flop_per_cycle()) + " FLOP/cycle (" + core.source + ")";
    const double max_hz = c.max_khz > 0      ? c.max_khz * 1e3
                          : c.hw_max_khz > 0 ? c.hw_max_khz * 1e3
                                             : model_name_hz(c.model_name);
    const double read_hz = c.cur_khz > 0 ? c.cur_khz * 1e3 : (cpuinfo_hz > 0 ? cpuinfo_hz : NAN);
    const double cur_hz = std::isfinite(clock_hz) && clock_hz > 0 ? clock_hz : read_hz;
    if (std::isnan(max_hz)) nominal_known = false;
    if (std::isnan(cur_hz)) at_clock_known = false;
    nominal += core.flop_per_cycle() * max_hz;
    at_clock += core.flop_per_cycle() * cur_hz;
  }
  if (cpus.empty()) nominal_known = at_clock_known = false;
  peak.flops_nominal = nominal_known ? nominal : NAN;
  peak.flops_at_clock = at_clock_known ? at_clock : NAN;
  std::string bw_source;
  peak.bytes_per_s = board_bytes_per_s(p, &bw_source);
  if (const Board* b = find_board(p); b && p.emc_hz > 0)
    peak.bytes_per_s_at_clock = board_bytes(*b, static_cast<double>(p.emc_hz));
  peak.source =
      std::to_string(cpus.size()) + " cpus; " + rows +
      (std::isfinite(clock_hz) && clock_hz > 0 ? "; clock measured: " + format_ghz(clock_hz)
                                               : std::string()) +
      (bw_source.empty() ? "; bandwidth: not in the board table (measure copy)"
                         : "; bandwidth: " + bw_source);
  return peak;
}

Peak cpu_peak_now(const Platform& p, const std::vector<int>& cpus) {
  if (cpus.empty()) return cpu_peak(p, cpus);  // no CPU set (reference, GPU): no peak to time
  bool cpufreq = true;
  for (int id : cpus) {
    const int i = p.cpu_index(id);
    if (i < 0 || p.cpus[static_cast<size_t>(i)].cur_khz <= 0) cpufreq = false;
  }
  return cpufreq ? cpu_peak(p, cpus) : cpu_peak(p, cpus, measure_core_clock_hz());
}

Peak gpu_peak(const Platform& p, const std::map<std::string, std::string>& cuda_info) {
  Peak peak;
  const Board* b = find_board(p);
  if (b) {
    const double max_hz = p.gpu_max_hz > 0 ? static_cast<double>(p.gpu_max_hz) : b->gpu_max_hz;
    peak.flops_nominal = 2.0 * b->gpu_cores * max_hz;
    if (p.gpu_cur_hz > 0) peak.flops_at_clock = 2.0 * b->gpu_cores * p.gpu_cur_hz;
    peak.bytes_per_s = board_bytes(*b, b->dram_mhz * 1e6);
    if (p.emc_hz > 0) peak.bytes_per_s_at_clock = board_bytes(*b, static_cast<double>(p.emc_hz));
    peak.source = std::to_string(b->gpu_cores) + " CUDA cores x 2 x " + format_ghz(max_hz) + " (" +
                  b->source + ")";
    return peak;
  }
  // A GPU that is not a Jetson: from the CUDA device properties.
  const double sms = to_double(cuda_info, "gpu_sm_count");
  const auto cc_it = cuda_info.find("gpu_compute_capability");
  const int per_sm = cc_it == cuda_info.end() ? 0 : cores_per_sm(cc_it->second);
  const double sm_hz = to_double(cuda_info, "gpu_clock_sm_max_mhz") * 1e6;
  if (per_sm > 0 && sms > 0) {
    const double cores = sms * per_sm;
    peak.flops_nominal = 2.0 * cores * sm_hz;  // NaN when the clock is unknown
    if (p.gpu_cur_hz > 0) peak.flops_at_clock = 2.0 * cores * p.gpu_cur_hz;
    peak.source = std::to_string(static_cast<int>(cores)) + " CUDA cores (" +
                  std::to_string(static_cast<int>(sms)) + " SMs x " + std::to_string(per_sm) +
                  " per SM, CUDA C++ Programming Guide throughput table) x 2 x " +
                  format_ghz(sm_hz);
  } else {
    peak.source = "GPU not in the board table and no CUDA device information";
  }
  const double bus = to_double(cuda_info, "gpu_memory_bus_width_bits");
  const double mem_hz = to_double(cuda_info, "gpu_clock_mem_max_mhz") * 1e6;
  if (bus > 0 && mem_hz > 0) peak.bytes_per_s = bus / 8.0 * mem_hz * 2.0;
  return peak;
}

double board_bytes_per_s(const Platform& p, std::string* source) {
  const Board* b = find_board(p);
  if (!b) {
    if (source) source->clear();
    return NAN;
  }
  if (source)
    *source = std::to_string(static_cast<int>(b->bus_bits)) + "-bit DRAM at " +
              std::to_string(static_cast<int>(b->dram_mhz)) + " MHz (" + b->source + ")";
  return board_bytes(*b, b->dram_mhz * 1e6);
}

std::string roofline_bound(double flop, double bytes, double peak_flops, double peak_bytes_per_s) {
  if (!(peak_flops > 0) || !(peak_bytes_per_s > 0) || !(flop >= 0) || !(bytes >= 0)) return "";
  if (bytes == 0) return "compute";
  // Compare time at each ceiling rather than dividing: flop / peak_flops is
  // the compute time, bytes / peak_bytes_per_s the memory time.
  return bytes / peak_bytes_per_s > flop / peak_flops ? "memory" : "compute";
}

double percent_of_peak(double achieved, double peak) {
  if (!(peak > 0) || std::isnan(achieved)) return NAN;
  return 100.0 * achieved / peak;
}

}  // namespace edp::platform
