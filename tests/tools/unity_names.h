// Names a source defines for itself (in an anonymous namespace, or `static`
// at namespace scope) must differ from every other source's in the same
// target: a unity build (EDPBENCH_UNITY_BUILD, docs/ci.md "Unity builds")
// compiles up to 8 of a target's sources as one translation unit, and two
// such names then clash, or two overloads become ambiguous. Which sources
// share a batch depends on how many files a target has, so the rule holds
// for every pair, not only for today's batches.
//
// The sources are read as clang-format writes them (.clang-format): a
// namespace's members start at column 0, and what a definition's first line
// names is the name it defines.
#pragma once

#include <string>
#include <vector>

namespace edp::tools {

// One name defined by a source for itself.
struct LocalName {
  std::string name;  // "read_all", "kTx2", "Dir"
  std::string file;  // relative to the root given to local_names
  int line = 0;
};

// The file-local names of one source's text: the types, functions,
// variables and aliases defined at column 0 inside `namespace {` ...
// `}  // namespace`, and the `static` functions and variables at column 0
// anywhere. `file` is only copied into the results.
std::vector<LocalName> local_names(const std::string& text, const std::string& file);

// Names defined in two or more of `files` (paths relative to `root`), each
// with every place that defines it, sorted by name. Throws
// std::runtime_error when a file cannot be read.
std::vector<std::vector<LocalName>> clashing_names(const std::string& root,
                                                   const std::vector<std::string>& files);

// The .cpp files of each group that CMake may batch together, relative to
// `root` (the repository), as the CMakeLists.txt files make the targets:
// each folder of src/ with its subfolders but its bench/ programs, each test
// area (tests/<area>/*.cpp; cli and bench with the INA3221 simulator), the
// monitor's two test targets, the lag accuracy program and python/. Files
// the build compiles on their own (tests/main.cpp,
// workloads/test_cuda_backend.cpp, tests/gpu_sim/lib/) are left out.
std::vector<std::vector<std::string>> unity_groups(const std::string& root);

}  // namespace edp::tools
