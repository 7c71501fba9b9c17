# EDPBENCH_SANITIZE: sanitizers for every target ("address,undefined" or
# "thread"); a UBSan finding aborts, so a test that triggers one fails.
# EDPBENCH_BUILD_FUZZERS: libFuzzer targets (fuzz/), Clang only; the code
# under test is instrumented for coverage and built with ASan and UBSan.
set(EDPBENCH_SANITIZE "" CACHE STRING "Sanitizers for every target: address,undefined or thread")
option(EDPBENCH_BUILD_FUZZERS "Build the libFuzzer targets in fuzz/ (Clang; ASan and UBSan)" OFF)

set(_edp_sanitize "${EDPBENCH_SANITIZE}")
if(EDPBENCH_BUILD_FUZZERS)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "EDPBENCH_BUILD_FUZZERS needs Clang (libFuzzer): configure with "
                        "-DCMAKE_CXX_COMPILER=clang++ (Debian: clang, libclang-rt-dev)")
  endif()
  if(_edp_sanitize STREQUAL "")
    set(_edp_sanitize "address,undefined")
  endif()
  add_compile_options(-fsanitize=fuzzer-no-link)
endif()
if(NOT _edp_sanitize STREQUAL "")
  add_compile_options(-fsanitize=${_edp_sanitize} -fno-omit-frame-pointer)
  # -O1 -g1, after the build type's flags, so they win: the optimisation the
  # sanitizers' and libFuzzer's documentation use, and line tables, which is
  # all a report's stack trace needs (file:line in every frame). Compiling
  # cpu_backend.cpp with ASan+UBSan took 30 s at -O2 -g, 15 s at -O1 -g1
  # (plain -O2: 7 s); the sanitizer builds were most of CI's time. A Debug
  # build keeps its -O0 -g.
  if(CMAKE_BUILD_TYPE STREQUAL "Debug")
    add_compile_options(-g)
  else()
    add_compile_options(-O1 -g1)
  endif()
  add_link_options(-fsanitize=${_edp_sanitize})
  # Clang at -O1 does not vectorize the GEMM's `#pragma omp simd` loops and
  # says so for each (-Wpass-failed): the optimisation level's doing, not a
  # defect; the Release builds vectorize them.
  if(CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    add_compile_options(-Wno-pass-failed)
  endif()
  if(_edp_sanitize MATCHES "undefined")
    add_compile_options(-fno-sanitize-recover=undefined)
  endif()
endif()
