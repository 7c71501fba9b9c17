#!/usr/bin/env bash
# Sets up, builds and runs every test of the native build (the README's test
# command, and what .ci/run calls) in build/. GPU tests skip, saying so,
# without a GPU. Installs the tests' packages (setup-deps.sh; docs/ci.md).
#
# usage: scripts/test.sh [--build-dir DIR] [--jobs N] [--test-jobs N] [-- extra ctest args]
#   --jobs N       build jobs (default: the CPUs)
#   --test-jobs N  tests at once (default: twice --jobs). Most tests wait
#                  (sensor periods, sampler windows, the processes they
#                  start): on 2 CPUs the ASan suite took 233 s at -j2 and
#                  120 s at -j4 with the same CPU seconds (docs/ci.md).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="$root/build"
jobs="$(nproc)"
test_jobs=""
ctest_args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --build-dir) build="$2"; shift 2 ;;
    --jobs) jobs="$2"; shift 2 ;;
    --test-jobs) test_jobs="$2"; shift 2 ;;
    --) shift; ctest_args=("$@"); break ;;
    -h|--help) sed -n '2,10p' "$0"; exit 0 ;;
    *) echo "test.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
"$root/scripts/setup-deps.sh"
# ccache where installed (.ci/run's set has it): its later builds reuse these
# objects (scripts/ci-gpu-sim.sh).
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake -S "$root" -B "$build" -G Ninja -DEDPBENCH_BUILD_TESTS=ON "${launcher[@]}" >/dev/null
cmake --build "$build" -j "$jobs"
cd "$build"
ctest --output-on-failure --timeout 900 -j "${test_jobs:-$(( 2 * jobs ))}" "${ctest_args[@]}"
