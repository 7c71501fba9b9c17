// The rows of stages.csv and memory.csv (DESIGN §9.3), pure functions of a
// stages item's record: its three parts (forward, forward_backward, step,
// each measured with the full protocol) and the values its profiled pass
// left (the names below). The column lists are the contract: the required
// columns first, in order; extras only after them.
#pragma once

#include <cmath>
#include <string>
#include <vector>

#include "report/records.h"

namespace edp::report {

// workload,size,device,stage,time_s,share,energy_j,gflops,compute_efficiency,note
const std::vector<std::string>& required_stages_columns();
const std::vector<std::string>& stages_columns();
// workload,size,device,tensor,kind,bytes_computed,bytes_measured
const std::vector<std::string>& required_memory_columns();
const std::vector<std::string>& memory_columns();

// The stages of one row each, in order; "step" is the whole step (time
// unprofiled against profiled, energy, overall CE).
const std::vector<std::string>& stage_names();

// Names of ItemRecord::values the profiled pass fills (units in the names).
namespace stage_values {
inline std::string time_s(const std::string& stage) { return "profile_" + stage + "_s"; }
constexpr const char* kStepWallS = "profile_step_wall_s";
constexpr const char* kDeviceTimer = "profile_device_timer";  // 1: CUDA events
inline std::string flop(const std::string& stage) { return "flop_" + stage; }
constexpr const char* kPeakFlops = "peak_flops_at_clock";  // FLOP/s
constexpr const char* kFmaPeakFlops = "fma_peak_flops";    // FLOP/s, when measured
constexpr const char* kMemMeasured = "memory_bytes_measured";
// One per tensor: "memory|<order>|<tensor>|<kind>" -> computed bytes.
std::string memory_key(int order, const std::string& tensor, const std::string& kind);
}  // namespace stage_values

// A difference of two independent means with 95% CIs a_ci and b_ci: the CI
// of a - b is sqrt(a_ci^2 + b_ci^2) (the root sum of squares; conservative
// next to Welch's when the two have similar run counts).
struct Difference {
  double value = NAN, ci95 = NAN;
  bool significant() const { return std::fabs(value) > ci95; }
};
Difference difference(double a, double a_ci, double b, double b_ci);

std::vector<std::vector<std::string>> stages_rows(const ItemRecord& rec);
std::vector<std::vector<std::string>> memory_rows(const ItemRecord& rec);

}  // namespace edp::report
