# Cross-build for a Jetson (TX2, JetPack 4.x = L4T R32, Ubuntu 18.04 aarch64,
# CUDA 10.2, sm_62) against the board's own root filesystem, so the binary
# links against the Jetson's glibc, libstdc++, yaml-cpp and CUDA libraries.
# docs/deployment.md ("Jetson sysroot") says what to copy from the board.
#
#   cmake -G Ninja -B build-jetson \
#         -DCMAKE_TOOLCHAIN_FILE=toolchains/jetson.cmake \
#         -DJETSON_SYSROOT=$HOME/jetson/rootfs
#
# Variables (cache; JETSON_SYSROOT may also come from the environment):
#   JETSON_SYSROOT        L4T root filesystem (rsync'ed from the board, or
#                         JetPack's Linux_for_Tegra/rootfs). Required.
#   JETSON_CXX            aarch64 g++ (default: aarch64-linux-gnu-g++-8, the
#                         board's GCC; else aarch64-linux-gnu-g++). nvcc 10.2
#                         accepts host compilers up to GCC 8.
#   JETSON_STATIC_LIBSTDCXX  link libstdc++/libgcc statically (default: ON when
#                         JETSON_CXX is newer than GCC 8, whose libstdc++ the
#                         board does not have)
#   JETSON_CUDA_ROOT      host CUDA 10.2 toolkit, default /usr/local/cuda-10.2.
#                         Its targets/aarch64-linux must hold the aarch64
#                         libraries (JetPack's cuda-cross-aarch64-10-2, or a
#                         link to $JETSON_SYSROOT/usr/local/cuda-10.2/targets/aarch64-linux).
#   CMAKE_CUDA_COMPILER   default $JETSON_CUDA_ROOT/bin/nvcc (the x86-64 nvcc)
#   JETSON_WITH_CUDA      default ON; OFF builds the CPU-only binary
#   JETSON_EXTRA_ROOT     extra search root for packages Ubuntu 18.04 lacks
#                         (CLI11, Catch2 v2, nlohmann-json 3: header-only,
#                         Debian's packages unpacked with dpkg -x; bionic's
#                         nlohmann-json-dev is 2.1 and has no CMake package)

set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)

# ---- the sysroot: checked first, with a message that says what to do -------
if(NOT JETSON_SYSROOT AND DEFINED ENV{JETSON_SYSROOT})
  set(JETSON_SYSROOT "$ENV{JETSON_SYSROOT}")
endif()
set(JETSON_SYSROOT "${JETSON_SYSROOT}" CACHE PATH "L4T root filesystem of the Jetson")
# try_compile projects re-read this file without the cache: pass it on.
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES JETSON_SYSROOT JETSON_CXX JETSON_CUDA_ROOT
     JETSON_EXTRA_ROOT JETSON_STATIC_LIBSTDCXX JETSON_WITH_CUDA)

if(NOT JETSON_SYSROOT)
  message(FATAL_ERROR
    "toolchains/jetson.cmake: JETSON_SYSROOT is not set.\n"
    "Copy the board's root filesystem (see docs/deployment.md, \"Jetson sysroot\"):\n"
    "  rsync -aR --delete nvidia@tx2:/{lib,usr/include,usr/lib,usr/local/cuda-10.2,etc/nv_tegra_release} ~/jetson/rootfs/\n"
    "then configure with -DJETSON_SYSROOT=$HOME/jetson/rootfs. "
    "For a build without the board's libraries use toolchains/aarch64-linux-gnu.cmake.")
endif()
get_filename_component(JETSON_SYSROOT "${JETSON_SYSROOT}" ABSOLUTE)
if(NOT IS_DIRECTORY "${JETSON_SYSROOT}")
  message(FATAL_ERROR "toolchains/jetson.cmake: JETSON_SYSROOT=${JETSON_SYSROOT} does not exist.")
endif()
if(NOT EXISTS "${JETSON_SYSROOT}/etc/nv_tegra_release")
  message(FATAL_ERROR
    "toolchains/jetson.cmake: ${JETSON_SYSROOT} does not look like an L4T root filesystem "
    "(no etc/nv_tegra_release). Copy it from the board (docs/deployment.md) or point "
    "JETSON_SYSROOT at JetPack's Linux_for_Tegra/rootfs.")
endif()
file(STRINGS "${JETSON_SYSROOT}/etc/nv_tegra_release" _jetson_release LIMIT_COUNT 1)
foreach(_f usr/include/stdio.h)
  if(NOT EXISTS "${JETSON_SYSROOT}/${_f}")
    message(FATAL_ERROR
      "toolchains/jetson.cmake: ${JETSON_SYSROOT}/${_f} is missing: the sysroot has no C "
      "headers. On the board run: sudo apt-get install libc6-dev libstdc++-8-dev, then copy again.")
  endif()
endforeach()
if(NOT EXISTS "${JETSON_SYSROOT}/usr/lib/aarch64-linux-gnu/crt1.o")
  message(FATAL_ERROR
    "toolchains/jetson.cmake: ${JETSON_SYSROOT}/usr/lib/aarch64-linux-gnu/crt1.o is missing "
    "(libc6-dev on the board), or the sysroot was copied without usr/lib.")
endif()
set(CMAKE_SYSROOT "${JETSON_SYSROOT}")

# ---- compilers ----------------------------------------------------------------
if(NOT JETSON_CXX)
  find_program(JETSON_CXX NAMES aarch64-linux-gnu-g++-8 aarch64-linux-gnu-g++
               DOC "aarch64 g++ for the Jetson (GCC 8 matches JetPack 4)")
endif()
if(NOT JETSON_CXX)
  message(FATAL_ERROR "toolchains/jetson.cmake: no aarch64-linux-gnu-g++-8 or aarch64-linux-gnu-g++. "
                      "On Ubuntu 18.04/20.04: sudo apt-get install g++-8-aarch64-linux-gnu")
endif()
set(CMAKE_CXX_COMPILER "${JETSON_CXX}")
string(REGEX REPLACE "g\\+\\+" "gcc" _jetson_cc "${JETSON_CXX}")
if(EXISTS "${_jetson_cc}")
  set(CMAKE_C_COMPILER "${_jetson_cc}")
endif()
set(CMAKE_CXX_FLAGS_INIT "-mcpu=cortex-a57")
set(CMAKE_C_FLAGS_INIT "-mcpu=cortex-a57")

# A compiler newer than the board's GCC 8 links against a libstdc++ the board
# does not have (GLIBCXX_3.4.26+): link it statically then.
if(NOT DEFINED JETSON_STATIC_LIBSTDCXX)
  execute_process(COMMAND "${JETSON_CXX}" -dumpversion OUTPUT_VARIABLE _jetson_gcc_ver
                  OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  set(JETSON_STATIC_LIBSTDCXX OFF)
  if(_jetson_gcc_ver VERSION_GREATER_EQUAL 9)
    set(JETSON_STATIC_LIBSTDCXX ON)
  endif()
endif()
if(JETSON_STATIC_LIBSTDCXX)
  set(CMAKE_EXE_LINKER_FLAGS_INIT "-static-libstdc++ -static-libgcc")
endif()

# ---- search: the sysroot for target files, the host for programs --------------
set(JETSON_EXTRA_ROOT "${JETSON_EXTRA_ROOT}" CACHE PATH
    "Extra root with header-only packages the board lacks (CLI11, Catch2, nlohmann-json)")
set(CMAKE_FIND_ROOT_PATH "${JETSON_SYSROOT}")
if(JETSON_EXTRA_ROOT)
  list(APPEND CMAKE_FIND_ROOT_PATH "${JETSON_EXTRA_ROOT}")
endif()
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
set(ENV{PKG_CONFIG_SYSROOT_DIR} "${JETSON_SYSROOT}")
set(ENV{PKG_CONFIG_LIBDIR}
    "${JETSON_SYSROOT}/usr/lib/aarch64-linux-gnu/pkgconfig:${JETSON_SYSROOT}/usr/lib/pkgconfig:${JETSON_SYSROOT}/usr/share/pkgconfig")
# The L4T libraries (libcuda, libnvrm*) live in .../tegra; the linker needs
# them to resolve libcuda's own dependencies.
set(_jetson_rpath_link
    "-Wl,-rpath-link,${JETSON_SYSROOT}/usr/lib/aarch64-linux-gnu/tegra -Wl,-rpath-link,${JETSON_SYSROOT}/usr/lib/aarch64-linux-gnu -Wl,-rpath-link,${JETSON_SYSROOT}/lib/aarch64-linux-gnu")
string(APPEND CMAKE_EXE_LINKER_FLAGS_INIT " ${_jetson_rpath_link}")
string(APPEND CMAKE_SHARED_LINKER_FLAGS_INIT " ${_jetson_rpath_link}")

# ---- CUDA 10.2 for sm_62 ----------------------------------------------------
option(JETSON_WITH_CUDA "Build the CUDA backend for the Jetson GPU" ON)
set(JETSON_CUDA_ROOT "/usr/local/cuda-10.2" CACHE PATH "Host CUDA 10.2 toolkit")
if(JETSON_WITH_CUDA)
  if(NOT CMAKE_CUDA_COMPILER)
    set(CMAKE_CUDA_COMPILER "${JETSON_CUDA_ROOT}/bin/nvcc")
  endif()
  if(NOT EXISTS "${CMAKE_CUDA_COMPILER}")
    message(FATAL_ERROR
      "toolchains/jetson.cmake: no nvcc at ${CMAKE_CUDA_COMPILER}. Install the x86-64 CUDA 10.2 "
      "toolkit and JetPack's cuda-cross-aarch64-10-2 (SDK Manager), set CMAKE_CUDA_COMPILER, "
      "or configure with -DJETSON_WITH_CUDA=OFF for a CPU-only binary.")
  endif()
  get_filename_component(_jetson_cuda_root "${CMAKE_CUDA_COMPILER}" DIRECTORY)
  get_filename_component(_jetson_cuda_root "${_jetson_cuda_root}" DIRECTORY)
  if(NOT EXISTS "${_jetson_cuda_root}/targets/aarch64-linux/include/cuda_runtime.h")
    message(FATAL_ERROR
      "toolchains/jetson.cmake: ${_jetson_cuda_root}/targets/aarch64-linux is missing: CMake "
      "takes CUDA's aarch64 headers and libraries from there. Install JetPack's "
      "cuda-cross-aarch64-10-2, or link the board's copy:\n"
      "  sudo ln -s ${JETSON_SYSROOT}/usr/local/cuda-10.2/targets/aarch64-linux "
      "${_jetson_cuda_root}/targets/aarch64-linux")
  endif()
  set(CMAKE_CUDA_HOST_COMPILER "${JETSON_CXX}")
  set(CMAKE_CUDA_ARCHITECTURES 62 CACHE STRING "TX2: Pascal sm_62")
  # nvcc takes its default include/library paths from targets/<dir>; the host
  # compiler needs the sysroot.
  set(CMAKE_CUDA_FLAGS_INIT "-target-dir aarch64-linux -Xcompiler=--sysroot=${JETSON_SYSROOT}")
  set(EDPBENCH_WITH_CUDA ON CACHE BOOL "Build the CUDA (cuBLAS) backend")
else()
  set(EDPBENCH_WITH_CUDA OFF CACHE BOOL "Build the CUDA (cuBLAS) backend" FORCE)
  set(CMAKE_CUDA_COMPILER "" CACHE FILEPATH "CUDA compiler (JETSON_WITH_CUDA=OFF)" FORCE)
endif()

# ---- running the tests: qemu with the board's own loader and libraries ------
find_program(EDPBENCH_QEMU NAMES qemu-aarch64 qemu-aarch64-static
             DOC "qemu-user binary that runs the aarch64 tests")
if(EDPBENCH_QEMU)
  set(CMAKE_CROSSCOMPILING_EMULATOR "${EDPBENCH_QEMU};-L;${JETSON_SYSROOT}" CACHE STRING
      "Runs target binaries on the build host")
endif()

set(CPACK_DEBIAN_PACKAGE_ARCHITECTURE arm64 CACHE STRING "Debian architecture of the package")
