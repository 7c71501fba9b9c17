#!/usr/bin/env bash
# CI stage of the monitor API (issue 24, DESIGN §11), at most ~5 minutes:
#  1. installs python3-torch when missing (about 1 minute; scripts/setup-deps.sh
#     --torch), so the seed paper's example really runs;
#  2. builds the monitor targets in the native build (no-op after test.sh) and
#     runs the monitor tests there: the Python module against the trace source
#     and the simulated INA3221, the example's output read back by recommend,
#     and the C++ API from a program built against the installed package;
#  3. builds the Python extension (and the test simulator) for the Pythons of
#     JetPack 4, 5 and 6 (3.6, 3.8, 3.10) where this machine has them (pyenv),
#     against the same libedpbench-monitor, and runs the Python tests on each.
# With --tests-ran (.ci/run, after scripts/test.sh ran every test of the same
# build with torch installed) step 2 does not run the monitor tests again: it
# checks in the build's LastTest.log that they ran and passed, the example
# included (not skipped).
# usage: scripts/ci-monitor.sh [--build-dir DIR] [--no-torch] [--tests-ran]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="$root/build"
torch=1
tests_ran=0
while [ $# -gt 0 ]; do
  case "$1" in
    --build-dir) build="$2"; shift 2 ;;
    --no-torch) torch=0; shift ;;
    --tests-ran) tests_ran=1; shift ;;
    -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
    *) echo "ci-monitor.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
start=$(date +%s)
# The tests' packages, and python3-torch so that the example really runs
# (--no-torch: it skips, saying so).
if [ "$torch" = 1 ] && ! /usr/bin/python3 -c "import torch" 2>/dev/null; then
  "$root/scripts/setup-deps.sh" --torch
else
  "$root/scripts/setup-deps.sh"
fi

[ -f "$build/CMakeCache.txt" ] \
  || cmake -S "$root" -B "$build" -G Ninja -DEDPBENCH_BUILD_TESTS=ON >/dev/null
cmake --build "$build" -j 2 --target edpbench edpbench_monitor edpbench_python edpbench_sim_python
if [ "$tests_ran" = 1 ]; then
  last="$build/Testing/Temporary/LastTest.log"
  example='test_example_results_are_recommended .* \.\.\. '
  if ! grep -q "^${example}ok\$" "$last" 2>/dev/null; then
    echo "ci-monitor: FAIL: $last does not show the example test passed:" \
      "$(grep -h "^$example" "$last" 2>/dev/null || echo 'no such test in it')"
    exit 1
  fi
  n=$(cd "$build" && ctest -N -L monitor | sed -n 's/^Total Tests: //p')
  echo "ci-monitor: the $n monitor tests ran in $build (scripts/test.sh), the example with torch"
else
  (cd "$build" && ctest -L monitor --output-on-failure --timeout 300)
fi
echo "ci-monitor: Debian python3 and the installed C++ package: $(( $(date +%s) - start )) s"

# 3. Older Pythons. The extension is compiled directly (the pybind11 headers
# of Debian, the interpreter's own Python.h and suffix), -O0: it is a test.
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
find_python() {  # $1 = 3.6: a pythonX.Y on PATH or under pyenv
  local p
  for p in "$HOME"/.pyenv/versions/"$1".*/bin/python"$1" "$(command -v "python$1" || true)"; do
    if [ -x "$p" ] && "$p" -c 'import sys' 2>/dev/null; then echo "$p"; return 0; fi
  done
  return 1
}
i2c=""
ls /usr/lib/*/libi2c.so >/dev/null 2>&1 && i2c=-li2c
for v in 3.6 3.8 3.10; do
  t0=$(date +%s)
  py="$(find_python "$v")" || { echo "ci-monitor: skip Python $v: no python$v on this machine"; continue; }
  inc="$("$py" -c 'import sysconfig; print(sysconfig.get_paths()["include"])')"
  suffix="$("$py" -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')"
  if [ ! -f "$inc/Python.h" ]; then echo "ci-monitor: skip Python $v: no Python.h"; continue; fi
  out="$tmp/py$v"
  mkdir -p "$out/edpbench"
  cp "$root/python/edpbench/__init__.py" "$out/edpbench/"
  c++ -std=c++17 -O0 -shared -fPIC -fvisibility=hidden -I"$inc" -I"$root/include" \
    "$root/python/edpbench_module.cpp" -L"$build/lib" -ledpbench-monitor \
    -Wl,-rpath,"$build/lib" -o "$out/edpbench/_edpbench$suffix" &
  c++ -std=c++17 -O0 -shared -fPIC -fvisibility=hidden -I"$inc" -I"$root/src" -I"$root/tests" \
    -I"$build/generated" "$root/tests/monitor/sim_module.cpp" "$root/tests/power/ina3221_sim.cpp" \
    "$build/src/power/libedp_power.a" "$build/src/common/libedp_common.a" -lpthread -ldl $i2c \
    -o "$out/_edpbench_sim$suffix" &
  wait || { echo "ci-monitor: FAIL: building the extension for Python $v"; exit 1; }
  if ! PYTHONPATH="$out" EDPBENCH_FIXTURES="$root/tests/fixtures" \
       EDPBENCH_BINARY="$build/src/cli/edpbench" \
       "$py" -m unittest discover -s "$root/tests/monitor" -p '*test*.py' > "$out/log" 2>&1; then
    cat "$out/log"
    echo "ci-monitor: FAIL on $("$py" --version 2>&1)"
    exit 1
  fi
  tail -n 3 "$out/log"
  echo "ci-monitor: $("$py" --version 2>&1): module built and tests passed in $(( $(date +%s) - t0 )) s"
done
echo "monitor stage: $(( $(date +%s) - start )) s"
