# Cross-build for 64-bit ARM Linux with Debian/Ubuntu's aarch64-linux-gnu-g++
# and the arm64 multiarch libraries (/usr/lib/aarch64-linux-gnu). Tests run
# under qemu-aarch64 through CMAKE_CROSSCOMPILING_EMULATOR, both in ctest and
# when catch_discover_tests lists the tests at build time.
#
#   scripts/setup-cross-deps.sh aarch64      # installs everything below
#   cmake -G Ninja -B build-aarch64 \
#         -DCMAKE_TOOLCHAIN_FILE=toolchains/aarch64-linux-gnu.cmake
#
# Variables (cache, all optional):
#   EDPBENCH_CROSS_PREFIX   compiler prefix, default aarch64-linux-gnu-
#                           (g++-8 from Ubuntu 18.04: set CMAKE_CXX_COMPILER=aarch64-linux-gnu-g++-8)
#   EDPBENCH_CROSS_OVERLAY  unpacked arm64 packages that cannot be co-installed
#                           with the amd64 ones (libyaml-cpp-dev is Multi-Arch: no;
#                           the target's Python, whose headers and interpreter
#                           cmake/CrossPython.cmake finds there with
#                           -DEDPBENCH_BUILD_PYTHON=ON); default /opt/edpbench-cross/arm64
#   EDPBENCH_CROSS_CPU      -mcpu value, default cortex-a57: the TX2's A57 cores
#                           and its Denver2 cores both run ARMv8.0 A57 code.
#   EDPBENCH_QEMU           qemu-aarch64 binary (qemu-user or qemu-user-static)
#
# CUDA is off here: Debian has no CUDA cross toolkit. toolchains/jetson.cmake
# builds the CUDA backend against a JetPack sysroot.

set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)

set(EDPBENCH_CROSS_PREFIX "aarch64-linux-gnu-" CACHE STRING "Cross compiler prefix")
set(EDPBENCH_CROSS_OVERLAY "/opt/edpbench-cross/arm64" CACHE PATH
    "Unpacked arm64 -dev packages (see scripts/setup-cross-deps.sh)")
set(EDPBENCH_CROSS_CPU "cortex-a57" CACHE STRING "-mcpu for the target")

if(NOT CMAKE_CXX_COMPILER)
  find_program(_edp_cross_cxx NAMES ${EDPBENCH_CROSS_PREFIX}g++ ${EDPBENCH_CROSS_PREFIX}g++-12
               ${EDPBENCH_CROSS_PREFIX}g++-8)
  if(NOT _edp_cross_cxx)
    message(FATAL_ERROR "No ${EDPBENCH_CROSS_PREFIX}g++ found. Run scripts/setup-cross-deps.sh aarch64 "
                        "(Debian/Ubuntu package g++-aarch64-linux-gnu), or set CMAKE_CXX_COMPILER.")
  endif()
  set(CMAKE_CXX_COMPILER "${_edp_cross_cxx}")
endif()
if(NOT CMAKE_C_COMPILER)
  # The project is C++ only; a C compiler is set for any C that finders try.
  find_program(_edp_cross_cc NAMES ${EDPBENCH_CROSS_PREFIX}gcc)
  if(_edp_cross_cc)
    set(CMAKE_C_COMPILER "${_edp_cross_cc}")
  endif()
endif()

set(CMAKE_CXX_FLAGS_INIT "-mcpu=${EDPBENCH_CROSS_CPU}")
set(CMAKE_C_FLAGS_INIT "-mcpu=${EDPBENCH_CROSS_CPU}")

# Search target files only in the multiarch tree and the overlay; programs
# (qemu, dpkg, python) come from the host. "/" covers /usr/lib/aarch64-linux-gnu
# and the arch-independent Eigen3, CLI11, Catch2 and nlohmann-json CMake
# packages (/usr/share/cmake).
set(CMAKE_FIND_ROOT_PATH "${EDPBENCH_CROSS_OVERLAY}" "/")
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
# Keep the host's amd64 libraries out: only lib/aarch64-linux-gnu and lib.
set(CMAKE_IGNORE_PATH /usr/lib/x86_64-linux-gnu /lib/x86_64-linux-gnu)
set(ENV{PKG_CONFIG_LIBDIR}
    "${EDPBENCH_CROSS_OVERLAY}/usr/lib/aarch64-linux-gnu/pkgconfig:/usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig")
set(ENV{PKG_CONFIG_SYSROOT_DIR} "")

# CUDA: no cross toolkit on Debian; use toolchains/jetson.cmake.
set(EDPBENCH_WITH_CUDA OFF CACHE BOOL "Build the CUDA (cuBLAS) backend" FORCE)
set(CMAKE_CUDA_COMPILER "" CACHE FILEPATH "CUDA compiler (disabled for aarch64-linux-gnu)" FORCE)

# qemu-user runs the target binaries. The ELF interpreter and libc must come
# from the same glibc build:
#  - with libc6:arm64 installed (scripts/setup-cross-deps.sh does), qemu needs
#    no -L: /lib/ld-linux-aarch64.so.1 and /usr/lib/aarch64-linux-gnu are the
#    real multiarch ones;
#  - "-L /usr/aarch64-linux-gnu" would then pair the cross toolchain's ld.so
#    (libc6-arm64-cross) with the multiarch libc.so.6, a different glibc
#    build, and multi-threaded programs (OpenMP) deadlock. It is used only when
#    libc6:arm64 is absent, i.e. when the cross libc is the only arm64 libc.
find_program(EDPBENCH_QEMU NAMES qemu-aarch64 qemu-aarch64-static
             DOC "qemu-user binary that runs the aarch64 tests")
if(EDPBENCH_QEMU)
  if(EXISTS /lib/ld-linux-aarch64.so.1)
    set(_edp_qemu "${EDPBENCH_QEMU}")
  else()
    set(_edp_qemu "${EDPBENCH_QEMU};-L;/usr/aarch64-linux-gnu")
  endif()
  set(CMAKE_CROSSCOMPILING_EMULATOR "${_edp_qemu}" CACHE STRING
      "Runs target binaries on the build host")
else()
  message(WARNING "qemu-aarch64 not found: tests cannot run on this host "
                  "(apt-get install qemu-user, or scripts/setup-cross-deps.sh aarch64)")
endif()

# CPack: the .deb's architecture follows the target, not the build host.
set(CPACK_DEBIAN_PACKAGE_ARCHITECTURE arm64 CACHE STRING "Debian architecture of the package")
