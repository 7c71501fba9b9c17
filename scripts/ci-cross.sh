#!/usr/bin/env bash
# CI for the aarch64 cross build: install the cross dependencies (only through
# scripts/setup-cross-deps.sh), configure with toolchains/aarch64-linux-gnu.cmake
# (CUDA off, tests on, the Python module on), build, and run ctest; test
# binaries run under qemu-aarch64 (CMAKE_CROSSCOMPILING_EMULATOR). Prints the
# time of each step.
#
# The Python module edpbench is built for the target's Python: Debian's arm64
# python3.X, which setup-cross-deps.sh unpacks into the overlay and
# cmake/CrossPython.cmake finds there (headers, the aarch64 extension name);
# its tests run that interpreter under qemu. The "module" step checks that the
# extension is an aarch64 ELF named for aarch64. With --deb the arm64 package
# is built and checked by tests/deploy/check-deb.sh (library, headers, CMake
# and pkg-config files, the aarch64 extension).
#
# usage: scripts/ci-cross.sh [--build-dir DIR] [--jobs N] [--test-timeout S] [--deb]
#                            [--all-tests] [-- ctest args]
#   env: EDPBENCH_CROSS_BUILD_TYPE (default Release: -O2 code runs faster under qemu)
#
# Under qemu the CPU is 30-100x slower than native for Eigen/NEON code. The
# tests in $qemu_slow below train whole sweeps and take 2-10+ minutes each
# there; they run in the native build, and are skipped here (with a notice)
# unless --all-tests is given.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
build="$root/build-aarch64"
jobs=2
test_timeout=600
make_deb=0
all_tests=0
ctest_args=()
qemu_slow='loss falls at every size|loss diverges to inf|SIGTERM mid-sweep then --resume|SIGINT mid-sweep exits 130'
while [ $# -gt 0 ]; do
  case "$1" in
    --build-dir) build="$2"; shift 2 ;;
    --jobs) jobs="$2"; shift 2 ;;
    --test-timeout) test_timeout="$2"; shift 2 ;;
    --deb) make_deb=1; shift ;;
    --all-tests) all_tests=1; shift ;;
    --) shift; ctest_args=("$@"); break ;;
    -h|--help) sed -n '2,24p' "$0"; exit 0 ;;
    *) echo "ci-cross.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done

now() { date +%s; }
times=()
step() {  # step NAME COMMAND...
  local name="$1" t0 rc=0; shift
  echo "==> $name" >&2
  t0=$(now)
  "$@" || rc=$?
  times+=("$(printf '%-10s %5ss%s' "$name" "$(( $(now) - t0 ))" "$([ $rc -eq 0 ] || echo "  (exit $rc)")")")
  return $rc
}
summary() {
  echo "ci-cross timings (aarch64, $jobs jobs):" >&2
  printf '  %s\n' "${times[@]}" >&2
  [ ! -d "$build" ] || printf '%s\n' "${times[@]}" >"$build/ci-cross-times.txt"
}
trap summary EXIT

step setup "$root/scripts/setup-cross-deps.sh" aarch64
step configure cmake -G Ninja -S "$root" -B "$build" \
  -DCMAKE_TOOLCHAIN_FILE="$root/toolchains/aarch64-linux-gnu.cmake" \
  -DCMAKE_BUILD_TYPE="${EDPBENCH_CROSS_BUILD_TYPE:-Release}" \
  -DCMAKE_INSTALL_PREFIX=/usr \
  -DEDPBENCH_WITH_CUDA=OFF -DEDPBENCH_BUILD_TESTS=ON -DEDPBENCH_BUILD_PYTHON=ON
step build cmake --build "$build" -j "$jobs"
check_module() {  # the extension is an aarch64 ELF with the name aarch64's Python loads
  local so desc
  so="$(ls "$build"/python/edpbench/_edpbench.*.so 2>/dev/null | head -n 1)"
  [ -n "$so" ] || { echo "ci-cross: no $build/python/edpbench/_edpbench.*.so was built" >&2; return 1; }
  desc="$(file -b "$so")"
  echo "ci-cross: $(basename "$so"): $desc" >&2
  case "$desc" in
    *"ARM aarch64"*) ;;
    *) echo "ci-cross: $so is not an aarch64 shared object (file: $desc)" >&2; return 1 ;;
  esac
  case "$so" in
    *.cpython-3*-aarch64-linux-gnu.so) ;;
    *) echo "ci-cross: $so: the target's Python loads only *.cpython-3XY-aarch64-linux-gnu.so;" \
            "see PYTHON_MODULE_EXTENSION in $build/CMakeCache.txt" >&2; return 1 ;;
  esac
}
step module check_module
# --timeout: per test. Under qemu the CPU is 5-20x slower than native.
if [ $all_tests -eq 0 ]; then
  echo "ci-cross: not run under qemu (too slow there; the native build runs them): $qemu_slow" >&2
  ctest_args=(-E "$qemu_slow" "${ctest_args[@]}")
fi
run_ctest() { (cd "$build" && ctest --output-on-failure -j "$jobs" --timeout "$test_timeout" "${ctest_args[@]}"); }
run_cpack() {
  (cd "$build" && rm -f edpbench_*.deb &&
   { cpack -G DEB > cpack.log 2>&1 || { cat cpack.log >&2; exit 1; }; })
}
check_deb() {
  local deb
  deb="$(ls "$build"/edpbench_*_arm64.deb)"
  EDPBENCH_DEB_EXPECT_PYTHON=1 sh "$root/tests/deploy/check-deb.sh" "$build" "$deb" >&2
  echo "ci-cross: $deb" >&2
}
step ctest run_ctest
if [ $make_deb -eq 1 ]; then
  step cpack run_cpack
  step deb-check check_deb
fi
