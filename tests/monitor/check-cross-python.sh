#!/bin/sh
# cmake/CrossPython.cmake against fake aarch64 target roots (no compiler: a
# project(NONE) with a cross toolchain file): the newest target Python is
# chosen, a version can be asked for, 3.6 gets the ABI flag m, the extension
# is named for aarch64, the tests' command runs the root's interpreter under
# the emulator, and a root without the target's pyconfig.h stops the configure.
# usage: check-cross-python.sh SOURCE_DIR [CMAKE]
set -eu
src="$1"; cmake="${2:-cmake}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

mkroot() {  # ROOT INCLUDE_DIR_NAME PY_VERSION: Debian's multiarch layout
  mkdir -p "$1/usr/include/aarch64-linux-gnu/$2" "$1/usr/include/$2"
  echo "#define PY_VERSION \"$3\"" > "$1/usr/include/$2/patchlevel.h"
  : > "$1/usr/include/$2/Python.h"
  : > "$1/usr/include/aarch64-linux-gnu/$2/pyconfig.h"
}
mkroot "$tmp/root" python3.6m 3.6.9
mkroot "$tmp/root" python3.11 3.11.2
mkdir -p "$tmp/root/usr/bin" "$tmp/hostlike/usr/include/python3.11"
: > "$tmp/root/usr/bin/python3.11"
echo '#define PY_VERSION "3.11.2"' > "$tmp/hostlike/usr/include/python3.11/patchlevel.h"
: > "$tmp/hostlike/usr/include/python3.11/Python.h"

mkdir -p "$tmp/p"
cat > "$tmp/toolchain.cmake" <<'EOF'
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH "${FAKE_ROOT}")
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
EOF
cat > "$tmp/p/CMakeLists.txt" <<EOF
cmake_minimum_required(VERSION 3.18)
project(t NONE)
include("$src/cmake/CrossPython.cmake")
message(STATUS "RESULT|\${PYTHON_MODULE_EXTENSION}|\${PYTHON_INCLUDE_DIRS}|\${EDPBENCH_TARGET_PYTHON_COMMAND}")
EOF
configure() {  # BUILD ROOT [cmake args]: prints RESULT|ext|includes|command, or fails
  b="$1"; root="$2"; shift 2
  "$cmake" -S "$tmp/p" -B "$tmp/$b" -DCMAKE_TOOLCHAIN_FILE="$tmp/toolchain.cmake" \
    -DFAKE_ROOT="$root" -DCMAKE_CROSSCOMPILING_EMULATOR=/usr/bin/qemu-aarch64 "$@" \
    > "$tmp/$b.log" 2>&1 || return 1
  sed -n 's/^-- RESULT|//p' "$tmp/$b.log"
}
expect() {  # WHAT GOT WANT
  [ "$2" = "$3" ] || fail "$1: got '$2', want '$3'"
  echo "ok: $1: $2"
}

r="$tmp/root"
got="$(configure b1 "$r")" || { cat "$tmp/b1.log"; fail "configure with Python 3.6 and 3.11 in the root"; }
expect "newest target Python" "$got" \
  ".cpython-311-aarch64-linux-gnu.so|$r/usr/include/python3.11;$r/usr/include|/usr/bin/qemu-aarch64;-L;$r;$r/usr/bin/python3.11"

# The same build directory, now for 3.6: what was derived is derived again.
got="$(configure b1 "$r" -DEDPBENCH_TARGET_PYTHON_VERSION=3.6)" || { cat "$tmp/b1.log"; fail "configure for 3.6"; }
expect "Python 3.6 asked for (ABI flag m, no interpreter in the root)" "$got" \
  ".cpython-36m-aarch64-linux-gnu.so|$r/usr/include/python3.6m;$r/usr/include|"

got="$(configure b1 "$r" -DEDPBENCH_TARGET_PYTHON_VERSION=3.11)" || { cat "$tmp/b1.log"; fail "back to 3.11"; }
expect "back to 3.11 in the same build directory" "$got" \
  ".cpython-311-aarch64-linux-gnu.so|$r/usr/include/python3.11;$r/usr/include|/usr/bin/qemu-aarch64;-L;$r;$r/usr/bin/python3.11"

got="$(configure b2 "$r" -DPYTHON_MODULE_EXTENSION=.so -DEDPBENCH_TARGET_PYTHON=)" \
  || { cat "$tmp/b2.log"; fail "configure with an explicit extension"; }
expect "explicit PYTHON_MODULE_EXTENSION, no tests' interpreter" "$got" \
  ".so|$r/usr/include/python3.11;$r/usr/include|"

if configure b3 "$r" -DEDPBENCH_TARGET_PYTHON_VERSION=3.8 > /dev/null; then
  fail "configure with EDPBENCH_TARGET_PYTHON_VERSION=3.8 but no 3.8 in the root succeeded"
fi
grep -q "no target Python headers" "$tmp/b3.log" || { cat "$tmp/b3.log"; fail "no message for a missing 3.8"; }
echo "ok: a Python version the root lacks stops the configure"

# The build host's headers alone (no <triplet>/python3.X/pyconfig.h) are not the target's.
if configure b4 "$tmp/hostlike" > /dev/null; then
  fail "a root without the target's pyconfig.h was taken for the target's Python"
fi
grep -q "no target Python headers" "$tmp/b4.log" || { cat "$tmp/b4.log"; fail "no message for a host-only root"; }
echo "ok: headers without the target's pyconfig.h stop the configure"
