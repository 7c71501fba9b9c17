# The target's Python in a cross build of the module edpbench
# (python/CMakeLists.txt with -DEDPBENCH_BUILD_PYTHON=ON).
#
# pybind11's classic finder (FindPythonLibsNew) runs PYTHON_EXECUTABLE to ask
# for the include directory and the extension's file name. In a cross build
# that is the build host's Python: x86_64 pyconfig.h, a
# .cpython-311-x86_64-linux-gnu.so name that the board's Python never loads.
# This file answers from the target's files instead and tells pybind11 that
# PythonLibsNew was found (PYTHONLIBS_FOUND + PYTHON_MODULE_EXTENSION), so
# pybind11 runs no interpreter at all. Cache variables, all optional:
#
#   EDPBENCH_TARGET_PYTHON_VERSION  3.11, 3.10, 3.8, 3.6, ...; default: the
#                                   newest whose target pyconfig.h is found
#   PYTHON_INCLUDE_DIR              the target's Python.h directory. Default:
#                                   <root>/usr/include/pythonX.Y[m], where
#                                   <root>/usr/include/<CMAKE_LIBRARY_ARCHITECTURE>/pythonX.Y[m]/pyconfig.h
#                                   exists for a root of CMAKE_FIND_ROOT_PATH
#                                   (the overlay of scripts/setup-cross-deps.sh;
#                                   the JetPack sysroot of toolchains/jetson.cmake)
#   PYTHON_MODULE_EXTENSION         default .cpython-XY[m]-<CMAKE_LIBRARY_ARCHITECTURE>.so
#   EDPBENCH_TARGET_PYTHON          the target's interpreter, run under
#                                   CMAKE_CROSSCOMPILING_EMULATOR by the Python
#                                   tests; default <root>/usr/bin/pythonX.Y when
#                                   it exists. Empty: the Python tests are skipped.
#
# Sets EDPBENCH_TARGET_PYTHON_COMMAND (cache, internal): the command that runs
# the target's interpreter on the build host, empty when it cannot run.

set(_arch "${CMAKE_LIBRARY_ARCHITECTURE}")
set(EDPBENCH_TARGET_PYTHON_VERSION "" CACHE STRING
    "Python version the cross-built module is for (empty: the newest found for the target)")
set(PYTHON_INCLUDE_DIR "" CACHE PATH "The target's Python.h directory (cross build)")

# Values derived by an earlier configure are derived again (another
# EDPBENCH_TARGET_PYTHON_VERSION, say); values given by the user stay.
if(_EDP_DERIVED_INC AND PYTHON_INCLUDE_DIR STREQUAL "${_EDP_DERIVED_INC}")
  set(PYTHON_INCLUDE_DIR "" CACHE PATH "The target's Python.h directory (cross build)" FORCE)
endif()
if(DEFINED _EDP_DERIVED_PY AND EDPBENCH_TARGET_PYTHON STREQUAL "${_EDP_DERIVED_PY}")
  unset(EDPBENCH_TARGET_PYTHON CACHE)
endif()

set(_root "")
if(NOT PYTHON_INCLUDE_DIR)
  if(NOT _arch)
    message(FATAL_ERROR "Cross-building the Python module: CMAKE_LIBRARY_ARCHITECTURE is not set "
                        "by the toolchain file, so the target's pyconfig.h cannot be found. Pass "
                        "-DPYTHON_INCLUDE_DIR=<target>/usr/include/python3.X and "
                        "-DPYTHON_MODULE_EXTENSION=.cpython-3X-<triplet>.so")
  endif()
  if(EDPBENCH_TARGET_PYTHON_VERSION)
    set(_versions ${EDPBENCH_TARGET_PYTHON_VERSION})
  else()
    set(_versions 3.13 3.12 3.11 3.10 3.9 3.8 3.7 3.6)
  endif()
  foreach(_v IN LISTS _versions)
    # 3.6 and 3.7 carry the ABI flag m (python3.6m); later ones do not.
    foreach(_dir python${_v} python${_v}m)
      # Re-rooted under each CMAKE_FIND_ROOT_PATH entry (mode INCLUDE ONLY).
      unset(_edp_pyconfig CACHE)
      find_file(_edp_pyconfig pyconfig.h PATHS /usr/include/${_arch}/${_dir} NO_DEFAULT_PATH)
      if(_edp_pyconfig)
        string(REGEX REPLACE "/usr/include/${_arch}/${_dir}/pyconfig\\.h$" "" _root "${_edp_pyconfig}")
        if(EXISTS "${_root}/usr/include/${_dir}/Python.h")
          set(PYTHON_INCLUDE_DIR "${_root}/usr/include/${_dir}" CACHE PATH
              "The target's Python.h directory (cross build)" FORCE)
          set(_EDP_DERIVED_INC "${PYTHON_INCLUDE_DIR}" CACHE INTERNAL "")
          break()
        endif()
      endif()
    endforeach()
    unset(_edp_pyconfig CACHE)
    if(PYTHON_INCLUDE_DIR)
      break()
    endif()
  endforeach()
  if(NOT PYTHON_INCLUDE_DIR)
    string(REPLACE ";" ", " _where "${CMAKE_FIND_ROOT_PATH}")
    message(FATAL_ERROR
      "EDPBENCH_BUILD_PYTHON=ON in a cross build, but no target Python headers were found: no "
      "usr/include/${_arch}/python{${EDPBENCH_TARGET_PYTHON_VERSION}}/pyconfig.h with Python.h "
      "under the find roots (${_where}). For toolchains/aarch64-linux-gnu.cmake run "
      "scripts/setup-cross-deps.sh aarch64 (unpacks Debian's arm64 Python); for a JetPack "
      "sysroot install python3-dev on the board before copying its root file system; or pass "
      "-DPYTHON_INCLUDE_DIR=... and -DPYTHON_MODULE_EXTENSION=...")
  endif()
endif()

if(NOT EXISTS "${PYTHON_INCLUDE_DIR}/Python.h" OR NOT EXISTS "${PYTHON_INCLUDE_DIR}/patchlevel.h")
  message(FATAL_ERROR "PYTHON_INCLUDE_DIR=${PYTHON_INCLUDE_DIR} has no Python.h and patchlevel.h: "
                      "point it at the target's include/python3.X directory")
endif()
file(STRINGS "${PYTHON_INCLUDE_DIR}/patchlevel.h" _pv REGEX "^#define PY_VERSION[ \t]+\"")
string(REGEX MATCH "([0-9]+)\\.([0-9]+)" _pv "${_pv}")
if(NOT _pv)
  message(FATAL_ERROR "${PYTHON_INCLUDE_DIR}/patchlevel.h has no PY_VERSION: is it a Python header directory?")
endif()
set(_major ${CMAKE_MATCH_1})
set(_minor ${CMAKE_MATCH_2})
if(EDPBENCH_TARGET_PYTHON_VERSION AND NOT EDPBENCH_TARGET_PYTHON_VERSION STREQUAL "${_major}.${_minor}")
  message(FATAL_ERROR "EDPBENCH_TARGET_PYTHON_VERSION=${EDPBENCH_TARGET_PYTHON_VERSION} but "
                      "${PYTHON_INCLUDE_DIR} holds Python ${_major}.${_minor}: make them agree")
endif()
get_filename_component(_incname "${PYTHON_INCLUDE_DIR}" NAME)
set(_abi "")
if(_incname MATCHES "m$")
  set(_abi m)
endif()
if(NOT _root AND PYTHON_INCLUDE_DIR MATCHES "^(.*)/usr/include/[^/]+$")
  set(_root "${CMAKE_MATCH_1}")  # a given PYTHON_INCLUDE_DIR in a Debian-like root
endif()

if(_arch)
  set(_ext ".cpython-${_major}${_minor}${_abi}-${_arch}.so")
else()
  set(_ext ".cpython-${_major}${_minor}${_abi}.so")
endif()
# Derived unless given: a value derived by an earlier configure is derived again.
if(NOT PYTHON_MODULE_EXTENSION OR PYTHON_MODULE_EXTENSION STREQUAL "${_EDP_DERIVED_EXT}")
  set(PYTHON_MODULE_EXTENSION "${_ext}" CACHE STRING "Suffix of the extension module" FORCE)
  set(_EDP_DERIVED_EXT "${_ext}" CACHE INTERNAL "")
endif()

# Debian's include/python3.X/pyconfig.h includes <triplet/python3.X/pyconfig.h>:
# the root's usr/include must be searched too (CMake drops it again where it is
# a compiler default, e.g. a --sysroot's).
set(_incs "${PYTHON_INCLUDE_DIR}")
if(EXISTS "${_root}/usr/include/${_arch}/${_incname}/pyconfig.h")
  list(APPEND _incs "${_root}/usr/include")
endif()

# What FindPythonLibsNew would have set; cached so that every directory's
# find_package(pybind11) (python/ and tests/monitor/) takes the answers.
set(PYTHONLIBS_FOUND TRUE CACHE INTERNAL "")
set(PYTHON_INCLUDE_DIRS "${_incs}" CACHE INTERNAL "")
set(PYTHON_LIBRARIES "" CACHE INTERNAL "")  # extensions do not link libpython on Linux
set(PYTHON_MODULE_PREFIX "" CACHE INTERNAL "")
set(PYTHON_VERSION_MAJOR ${_major} CACHE INTERNAL "")
set(PYTHON_VERSION_MINOR ${_minor} CACHE INTERNAL "")
set(PYTHON_IS_DEBUG 0 CACHE INTERNAL "")

# The interpreter for the tests, run on the build host under the emulator.
if(NOT DEFINED EDPBENCH_TARGET_PYTHON)
  set(_py_default "")
  if(EXISTS "${_root}/usr/bin/python${_major}.${_minor}")
    set(_py_default "${_root}/usr/bin/python${_major}.${_minor}")
  endif()
  set(EDPBENCH_TARGET_PYTHON "${_py_default}" CACHE FILEPATH
      "The target's python3, run under CMAKE_CROSSCOMPILING_EMULATOR by the Python tests")
  set(_EDP_DERIVED_PY "${_py_default}" CACHE INTERNAL "")
else()
  unset(_EDP_DERIVED_PY CACHE)  # the user's value
endif()
set(_cmd "")
set(EDPBENCH_TARGET_PYTHON_WHY "")
if(NOT EDPBENCH_TARGET_PYTHON)
  set(EDPBENCH_TARGET_PYTHON_WHY "no target interpreter (EDPBENCH_TARGET_PYTHON)")
elseif(NOT CMAKE_CROSSCOMPILING_EMULATOR)
  set(EDPBENCH_TARGET_PYTHON_WHY "no CMAKE_CROSSCOMPILING_EMULATOR to run ${EDPBENCH_TARGET_PYTHON}")
else()
  list(GET CMAKE_CROSSCOMPILING_EMULATOR 0 _emu)
  get_filename_component(_emu_name "${_emu}" NAME)
  if(_emu_name MATCHES "^qemu-" AND NOT _root STREQUAL "" AND NOT _root STREQUAL "/"
     AND NOT "-L" IN_LIST CMAKE_CROSSCOMPILING_EMULATOR)
    # -L: the interpreter's standard library and libraries (zlib, expat) come
    # from the root it was unpacked into, the rest (libc) from the real
    # multiarch directories.
    set(_cmd ${CMAKE_CROSSCOMPILING_EMULATOR} -L "${_root}" "${EDPBENCH_TARGET_PYTHON}")
  elseif(_root STREQUAL "" OR _root STREQUAL "/" OR _root STREQUAL "${CMAKE_SYSROOT}")
    set(_cmd ${CMAKE_CROSSCOMPILING_EMULATOR} "${EDPBENCH_TARGET_PYTHON}")
  else()
    set(EDPBENCH_TARGET_PYTHON_WHY "the emulator (${CMAKE_CROSSCOMPILING_EMULATOR}) cannot be "
        "pointed at ${_root}, where ${EDPBENCH_TARGET_PYTHON} finds its libraries")
  endif()
endif()
set(EDPBENCH_TARGET_PYTHON_COMMAND "${_cmd}" CACHE INTERNAL "Runs the target's Python")
set(EDPBENCH_TARGET_PYTHON_WHY "${EDPBENCH_TARGET_PYTHON_WHY}" CACHE INTERNAL "")
message(STATUS "Python module for the target: Python ${_major}.${_minor}, ${PYTHON_INCLUDE_DIR}, "
               "*${PYTHON_MODULE_EXTENSION}")
