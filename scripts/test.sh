#!/usr/bin/env bash
# Sets up, builds and runs every test of the native build (the README's test
# command, and what .ci/run calls) in build/. GPU tests skip, saying so,
# without a GPU. Installs the tests' packages (setup-deps.sh; docs/ci.md).
#
# usage: scripts/test.sh [--build-dir DIR] [--jobs N] [-- extra ctest args]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="$root/build"
jobs="$(nproc)"
ctest_args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --build-dir) build="$2"; shift 2 ;;
    --jobs) jobs="$2"; shift 2 ;;
    --) shift; ctest_args=("$@"); break ;;
    -h|--help) sed -n '2,5p' "$0"; exit 0 ;;
    *) echo "test.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
"$root/scripts/setup-deps.sh"
cmake -S "$root" -B "$build" -G Ninja -DEDPBENCH_BUILD_TESTS=ON >/dev/null
cmake --build "$build" -j "$jobs"
cd "$build"
ctest --output-on-failure --timeout 900 -j "$jobs" "${ctest_args[@]}"
