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
  // caller choose between gemm_paths() (cpu_auto_gemm_paths()) by timing
  // real work (bench/protocol/gemm_choice.h).
  std::string gemm = "auto";
};

std::unique_ptr<Backend> make_cpu_backend(const CpuOptions& options);

// Whether this build can use OpenBLAS for GEMM.
bool cpu_has_openblas();

// The GEMM paths this build offers, each one a configuration can name:
// eigen, then openblas and blis where linked and usable.
std::vector<std::string> cpu_gemm_paths();

// The paths `gemm: auto` measures, in its tie order (the first wins a tie):
// one BLAS library, OpenBLAS where linked, else BLIS; then Eigen.
// - One library: OpenBLAS and BLIS come within a few percent of each other
//   at most shapes, and their ratio moves by more than that from one process
//   to the next (up to 25% at one shape on a quiet machine), so with both
//   measured the choice changed between sweeps at 5 to 7 of the ops study's
//   18 shapes. `gemm: blis` still runs BLIS.
// - The library first: a tie goes to the path that wins outright where the
//   two differ (OpenBLAS, at every one of the 18 shapes). With Eigen first,
//   the one change between three sweeps was a tie handed to Eigen at a shape
//   that OpenBLAS won in the other two (docs/benchmarks.md).
std::vector<std::string> cpu_auto_gemm_paths();

// Why `gemm: <path>` cannot run here ("" when it can): a library the build
// lacks or cannot use, or an unknown path. With the fix in the message.
std::string cpu_gemm_path_problem(const std::string& path);

// Enables flush-to-zero and denormals-are-zero for the calling thread.
void enable_flush_to_zero();

}  // namespace edp
