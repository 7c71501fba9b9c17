// BLIS as the cpu backend's third GEMM kernel (workloads/cpu_blis.h). Its
// numbers are checked with the other paths in test_cpu_gemm.cpp (every split,
// transposition and beta, C starting as NaN for beta = 0); here: that linking
// BLIS beside OpenBLAS leaves `gemm: openblas` on OpenBLAS, that a
// configuration can name the path, and what context.json says about it.
#include <catch2/catch.hpp>

#include <dlfcn.h>

#include <algorithm>
#include <stdexcept>
#include <string>

#include "workloads/cpu_backend.h"
#include "workloads/cpu_blis.h"

using namespace edp;

// Declared here without cblas.h, for its address only: which library the
// dynamic linker bound the name to.
extern "C" void cblas_sgemm();

namespace {
std::string library_of(void* symbol) {
  Dl_info info{};
  if (::dladdr(symbol, &info) == 0 || info.dli_fname == nullptr) return "<unknown>";
  return info.dli_fname;
}

std::string refusal(const std::string& gemm) {
  CpuOptions o;
  o.threads = 1;
  o.gemm = gemm;
  try {
    make_cpu_backend(o);
  } catch (const std::exception& e) {
    return e.what();
  }
  return "<accepted>";
}
}  // namespace

TEST_CASE("blis: cblas_sgemm stays OpenBLAS's when BLIS is linked too", "[workloads][cpu][gemm]") {
  // libblis exports cblas_sgemm as well; the first library on the link line
  // provides it. Linked the other way round, `gemm: openblas` would silently
  // have run BLIS (src/workloads/CMakeLists.txt).
  if (!cpu_has_openblas() || !cpu::blis_available()) {  // nothing shadows: fewer paths
    CHECK(cpu_gemm_paths().size() < 3);
    return;
  }
  const std::string lib = library_of(reinterpret_cast<void*>(&cblas_sgemm));
  INFO("cblas_sgemm comes from " << lib);
  CHECK(lib.find("openblas") != std::string::npos);
  CHECK(lib.find("blis") == std::string::npos);
}

TEST_CASE("blis: the path a configuration names, and what context.json says",
          "[workloads][cpu][gemm]") {
  const std::vector<std::string> paths = cpu_gemm_paths();
  REQUIRE(paths.front() == "eigen");
  CHECK((std::find(paths.begin(), paths.end(), "blis") != paths.end()) == cpu::blis_available());
  CHECK_THAT(
      refusal("mkl"),
      Catch::Equals("cpu gemm: unknown path 'mkl' (expected auto, eigen, openblas or blis)"));
  if (!cpu::blis_available()) {
    CHECK_THAT(refusal("blis"), Catch::Contains("install libblis-serial-dev and reconfigure"));
    CHECK(cpu::blis_facts().empty());
    return;
  }
  CpuOptions o;
  o.threads = 2;
  o.gemm = "blis";
  const auto be = make_cpu_backend(o);
  const auto d = be->describe();
  CHECK(d.at("gemm_path") == "blis");
  CHECK(d.at("gemm_choice") == "blis (configured)");
  // The version BLIS reports ("0.9.0") and the sub-configuration it chose
  // for this CPU at run time (e.g. zen3, haswell, skx, cortexa57, generic).
  REQUIRE(d.count("blis_version"));
  CHECK_THAT(d.at("blis_version"), Catch::Matches("[0-9]+\\.[0-9]+.*"));
  REQUIRE(d.count("blis_arch"));
  CHECK_FALSE(d.at("blis_arch").empty());
  // `gemm: auto` measures one BLAS library, first in the tie order, and
  // Eigen: BLIS only in a build without OpenBLAS (with both, the two flipped
  // between sweeps).
  const std::vector<std::string> want = cpu_has_openblas()
                                            ? std::vector<std::string>{"openblas", "eigen"}
                                            : std::vector<std::string>{"blis", "eigen"};
  CHECK(cpu_auto_gemm_paths() == want);
  CHECK(be->gemm_paths() == want);
}

TEST_CASE("blis: one call against a hand-computed product, strided and transposed",
          "[workloads][cpu][gemm]") {
  if (!cpu::blis_available()) {
    float c = 0;
    CHECK_THROWS_AS(cpu::blis_sgemm(false, false, 1, 1, 1, 1.0f, &c, 1, &c, 1, 0.0f, &c, 1),
                    std::logic_error);
    return;
  }
  // op(A) = A^T, A stored 2 x 3 in rows of 4 (lda 4); op(B) = B^T, B stored
  // 2 x 2 in rows of 3; C 3 x 2 in rows of 5. C = 2 A^T B^T + 0.5 C.
  const float a[] = {1, 2, 3, -1, 4, 5, 6, -1};
  const float b[] = {1, 0, -1, 2, 1, -1};
  float c[] = {10, 20, 99, 99, 99, 30, 40, 99, 99, 99, 50, 60, 99, 99, 99};
  cpu::blis_sgemm(true, true, 3, 2, 2, 2.0f, a, 4, b, 3, 0.5f, c, 5);
  // A^T = [[1,4],[2,5],[3,6]], B^T = [[1,2],[0,1]]; A^T B^T = [[1,6],[2,9],[3,12]].
  const float want[] = {2 + 5, 12 + 10, 4 + 15, 18 + 20, 6 + 25, 24 + 30};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 2; ++j) CHECK(c[i * 5 + j] == want[i * 2 + j]);
  for (int i = 0; i < 3; ++i)
    for (int j = 2; j < 5; ++j) CHECK(c[i * 5 + j] == 99);  // outside C: untouched
}
