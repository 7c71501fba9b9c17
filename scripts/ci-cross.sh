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
# Under qemu the CPU is 30-100x slower than native for Eigen/NEON code. What
# runs there (unless --all-tests is given) is what the target's architecture
# can change: every test but the CLI's and the tools' (workloads and their
# NEON paths, power, platform, report, bench, monitor with the arm64 Python,
# deploy; the tools' tests check the source tree's includes), and of the
# CLI's, the end-to-end runs listed in $cli_on_target (each command once on
# the aarch64 binary). The other CLI tests check how edpbench treats files,
# signals and arguments, which the architecture does not change: under qemu
# they took 360 of the stage's 740 test-seconds, and the native stage runs
# them all. The tests in $qemu_slow train whole sweeps (2-10+ minutes each
# there) and are left out too. Each name in $cli_on_target must match a test:
# a renamed test fails the stage instead of silently leaving the selection.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
build="$root/build-aarch64"
jobs=2
test_timeout=600
make_deb=0
all_tests=0
ctest_args=()
# The last five: 15-50 s each under qemu (the CLI starting edpbench through
# the emulator dozens of times, or a whole paper-size sweep); the cgroup test
# trains a 16384 x 13000 batch, past ctest's 600 s under qemu on CI's runner.
qemu_slow='loss falls at every size|loss diverges to inf|SIGTERM mid-sweep then --resume|SIGINT mid-sweep exits 130'
qemu_slow+="|in a 2 GiB cgroup the memory check holds|paper\.yaml's setting is flagged as diverged"
qemu_slow+='|resume refuses a different configuration|plan lists the items run measures'
qemu_slow+='|an interrupted stages sweep resumes|every signal that ends a run restores the clocks'
# The CLI tests run under qemu: each command end to end on the aarch64 binary
# (about 25 s there), one pattern a test.
cli_on_target=(
  'run on quick\.yaml with tiny sizes writes one row per configuration'
  'constant trace power P gives energy P\*t and EDP'
  'tx2\.yaml on a live simulated TX2 measures VDD_IN energy'
  'measure: sleep 0\.5 under constant trace power P gives energy'
  'ops study writes ops\.csv with the DESIGN columns'
  'plan lists every item at every point, in the order run measures them'
  'report over several directories: the cross-board report'
  'recommend --json: the recommendations as one object'
  'compare: tables, context differences, one-side configurations'
  'dump writes npy tensors whose NumPy training loss matches loss\.csv'
  'CLI: restore --state puts back what a crashed sweep changed'
  'the version flag and every subcommand.s help work'
)
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
# Twice the CPUs, as the native stage: at -j2 the CPUs were busy 1.44 of 2
# (many tests wait for a sensor's period or an edpbench process).
ctest_in() {
  (cd "$build" && ctest --output-on-failure --no-tests=error -j $(( 2 * jobs )) \
    --timeout "$test_timeout" "$@")
}
if [ $all_tests -eq 1 ]; then
  run_ctest() { ctest_in "${ctest_args[@]}"; }
else
  echo "ci-cross: not run under qemu (too slow there; the native build runs them): $qemu_slow" >&2
  echo "ci-cross: not run under qemu: the tools: tests (checks of the source tree's includes," \
       "the same on every architecture; the native build runs them)" >&2
  echo "ci-cross: of the cli: tests, only the ${#cli_on_target[@]} end-to-end runs of \$cli_on_target" \
       "(the native stage runs every one)" >&2
  cli_regex="^cli:($(IFS='|'; echo "${cli_on_target[*]}"))"
  run_ctest() {
    local pattern n
    for pattern in "${cli_on_target[@]}"; do
      n=$(cd "$build" && ctest -N -R "^cli:$pattern" | sed -n 's/^Total Tests: //p')
      if [ "${n:-0}" -lt 1 ]; then
        echo "ci-cross: no cli: test matches '$pattern' (renamed? update \$cli_on_target in $0)" >&2
        return 1
      fi
    done
    ctest_in -E "^cli:|^tools:|$qemu_slow" "${ctest_args[@]}" &&
      ctest_in -R "$cli_regex" -E "$qemu_slow" "${ctest_args[@]}"
  }
fi
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
