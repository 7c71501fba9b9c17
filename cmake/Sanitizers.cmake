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
  add_compile_options(-fsanitize=${_edp_sanitize} -fno-omit-frame-pointer -g)
  add_link_options(-fsanitize=${_edp_sanitize})
  if(_edp_sanitize MATCHES "undefined")
    add_compile_options(-fno-sanitize-recover=undefined)
  endif()
endif()
