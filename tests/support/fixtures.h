// Fixtures that tests in several files read, named once (tests/fixtures/).
#pragma once

#include <string>

namespace edp::testing {

// A power trace of a constant 7.5 W on VDD_IN (2.5 W on the GPU rail).
inline const std::string kConstantTrace = EDPBENCH_FIXTURES "/cli/constant_7w5.csv";
// Platform trees (sysfs and procfs as the platform layer reads them).
inline const std::string kTx2Tree = EDPBENCH_FIXTURES "/platform/tx2";
inline const std::string kX86Tree = EDPBENCH_FIXTURES "/platform/x86-vm";
// Power monitor trees (one folder per board layout) and a TX2's.
inline const std::string kPowerFixtures = EDPBENCH_FIXTURES "/power";
inline const std::string kTx2Rails = EDPBENCH_FIXTURES "/power/tx2-jp4";
// Sweeps as `edpbench run` wrote them on a TX2 and an Orin NX.
inline const std::string kTx2Sweep = EDPBENCH_FIXTURES "/report/tx2_sweep";
inline const std::string kOrinSweep = EDPBENCH_FIXTURES "/report/orin_nx_sweep";

// Where the platform layer finds each CPU's folder: this path and the CPU's number.
inline const std::string kSysCpu = "/sys/devices/system/cpu/cpu";

}  // namespace edp::testing
