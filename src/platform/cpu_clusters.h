// The CPU cluster names the platform layer gives cores (from MIDR_EL1 on Arm,
// "x86" elsewhere): the one list a config's `cpus:` may name, whatever board
// it is written on (resolve_cpu_set checks it against this machine).
#pragma once

#include <string>
#include <vector>

namespace edp::platform {

// Every cluster name this build knows ("a57", "denver", "carmel", "a78ae",
// ..., "x86"), in a fixed order.
const std::vector<std::string>& cpu_cluster_names();

// The cluster name of an Arm core from MIDR_EL1's implementer and part
// number, or "arm-0xII-0xPPP" when the table lacks it.
std::string arm_core_name(int implementer, int part);

}  // namespace edp::platform
