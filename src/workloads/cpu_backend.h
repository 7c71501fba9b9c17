// The vectorised, multi-threaded CPU backend: Eigen for GEMM and element-wise
// work, OpenMP threads pinned to a chosen CPU set, flush-to-zero and
// denormals-are-zero on every worker, and optionally OpenBLAS or BLIS for
// GEMM.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "workloads/backend.h"

namespace edp {

struct CpuOptions {
  int threads = 0;        // 0 = one per CPU in `cpus` (or per online CPU)
  std::vector<int> cpus;  // pin worker i to cpus[i % size]; empty = no pinning
  // "eigen", "openblas", "blis", or "auto": start with Eigen and let the
  // caller choose between gemm_paths() by timing real work
  // (bench/protocol/gemm_choice.h).
  std::string gemm = "auto";
};

std::unique_ptr<Backend> make_cpu_backend(const CpuOptions& options);

// Whether this build can use OpenBLAS for GEMM.
bool cpu_has_openblas();

// The GEMM paths this build offers, in the order `gemm: auto` lists them
// (the first wins a tie): eigen, then openblas and blis where linked.
std::vector<std::string> cpu_gemm_paths();

// Why `gemm: <path>` cannot run here ("" when it can): a library the build
// lacks or cannot use, or an unknown path. With the fix in the message.
std::string cpu_gemm_path_problem(const std::string& path);

// Enables flush-to-zero and denormals-are-zero for the calling thread.
void enable_flush_to_zero();

}  // namespace edp
