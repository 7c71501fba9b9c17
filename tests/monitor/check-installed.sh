#!/bin/sh
# The C++ API from outside the project: installs the monitor component of
# BUILD_DIR into a temporary prefix (cmake --install --component monitor),
# builds tests/monitor/consumer against it with find_package(edpbench) and
# again with pkg-config, and runs both on the trace fixture.
# usage: check-installed.sh BUILD_DIR [CMAKE]
set -eu
build="$1"; cmake="${2:-cmake}"
here="$(cd "$(dirname "$0")" && pwd)"
trace="$here/../fixtures/power/traces/tx2_idle.csv"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$cmake" --install "$build" --prefix "$tmp/prefix" --component monitor > "$tmp/install.log" \
  || { cat "$tmp/install.log"; fail "cmake --install"; }
echo "installed:"; (cd "$tmp/prefix" && find . -type f -o -type l | sort | sed 's/^/  /')
hdr="$tmp/prefix/include/edpbench/monitor.h"
[ -f "$hdr" ] || fail "no include/edpbench/monitor.h"
# The public headers must not leak an internal one: no quoted include, and
# each edpbench/ header they include is installed beside them.
for h in "$tmp/prefix/include/edpbench"/*.h; do
  if grep -n '#include "' "$h"; then fail "$(basename "$h") includes a project header"; fi
  for inc in $(sed -n 's|^#include <\(edpbench/[^>]*\)>.*|\1|p' "$h"); do
    [ -f "$tmp/prefix/include/$inc" ] || fail "$(basename "$h") includes $inc, which is not installed"
  done
done
ls "$tmp/prefix"/lib*/libedpbench-monitor.so* "$tmp"/prefix/lib/*/libedpbench-monitor.so* \
  2>/dev/null | grep -q . || fail "no libedpbench-monitor.so"

# 1. CMake: find_package(edpbench) -> edpbench::monitor
"$cmake" -S "$here/consumer" -B "$tmp/consumer" -DCMAKE_PREFIX_PATH="$tmp/prefix" \
  -DCMAKE_BUILD_TYPE=Release > "$tmp/configure.log" 2>&1 \
  || { cat "$tmp/configure.log"; fail "find_package(edpbench)"; }
"$cmake" --build "$tmp/consumer" > "$tmp/build.log" 2>&1 \
  || { cat "$tmp/build.log"; fail "building against edpbench::monitor"; }
"$tmp/consumer/consumer" "$trace" "$tmp/out-cmake" || fail "consumer (CMake build)"
echo "ok: find_package(edpbench) build"

# 2. pkg-config
if command -v pkg-config >/dev/null 2>&1; then
  pc="$(dirname "$(find "$tmp/prefix" -name edpbench-monitor.pc | head -n 1)")"
  [ -n "$pc" ] || fail "no edpbench-monitor.pc"
  flags="$(PKG_CONFIG_PATH="$pc" pkg-config --cflags --libs edpbench-monitor)"
  echo "pkg-config: $flags"
  # shellcheck disable=SC2086
  ${CXX:-c++} -std=c++11 -O1 "$here/consumer/main.cpp" $flags -pthread -o "$tmp/consumer-pc" \
    || fail "building with pkg-config flags"
  libdir="$(PKG_CONFIG_PATH="$pc" pkg-config --variable=libdir edpbench-monitor)"
  LD_LIBRARY_PATH="$libdir" "$tmp/consumer-pc" "$trace" "$tmp/out-pc" > /dev/null \
    || fail "consumer (pkg-config build)"
  echo "ok: pkg-config build (C++11)"
else
  echo "note: pkg-config not found, the .pc file was not tried"
fi
