// The edpbench binary the CLI tests start. Its path is found at run time from
// the test executable's own path (its build's tests/ folder), not compiled
// in: the tests' objects are then the same in every build folder, and .ci/run
// compiles them once (ccache) for its native and GPU-simulator builds.
#pragma once

namespace edp::testing {

// Absolute path of this build's edpbench (in a cross build, the script that
// starts it under the emulator). Aborts with a message if it is not there.
const char* edpbench_binary();

}  // namespace edp::testing

#define EDPBENCH_BINARY (::edp::testing::edpbench_binary())
