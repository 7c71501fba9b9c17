#!/bin/sh
# toolchains/jetson.cmake stops early, with a message that says what to do,
# when JETSON_SYSROOT is missing, does not exist, is not an L4T rootfs, or
# lacks the C headers. (A full Jetson build needs the board's rootfs and
# CUDA 10.2; docs/deployment.md.)
# usage: check-jetson-toolchain.sh CMAKE SOURCE_DIR
set -eu
cmake="$1"; src="$2"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/proj"
printf 'cmake_minimum_required(VERSION 3.18)\nproject(probe CXX)\n' > "$tmp/proj/CMakeLists.txt"

expect_error() {  # expect_error NAME PATTERN [cmake args...]
  name="$1"; pattern="$2"; shift 2
  rm -rf "$tmp/b"
  if env -u JETSON_SYSROOT "$cmake" -S "$tmp/proj" -B "$tmp/b" \
       -DCMAKE_TOOLCHAIN_FILE="$src/toolchains/jetson.cmake" "$@" > "$tmp/out" 2>&1; then
    echo "FAIL ($name): configure succeeded"; cat "$tmp/out"; exit 1
  fi
  # CMake wraps long messages: compare with line breaks folded.
  if ! tr '\n' ' ' < "$tmp/out" | tr -s ' ' | grep -q -- "$pattern"; then
    echo "FAIL ($name): expected '$pattern' in:"; cat "$tmp/out"; exit 1
  fi
  echo "ok: $name"
}

expect_error "no JETSON_SYSROOT" "JETSON_SYSROOT is not set"
expect_error "JETSON_SYSROOT does not exist" "$tmp/nowhere does not exist" -DJETSON_SYSROOT="$tmp/nowhere"
mkdir -p "$tmp/debian-root/etc"
expect_error "not an L4T rootfs" "does not look like an L4T root filesystem (no etc/nv_tegra_release)" \
  -DJETSON_SYSROOT="$tmp/debian-root"
mkdir -p "$tmp/l4t/etc"
echo "# R32 (release), REVISION: 7.1, GCID: 29818004, BOARD: t186ref, EABI: aarch64, DATE: Sat Feb 19 17:05:08 UTC 2022" \
  > "$tmp/l4t/etc/nv_tegra_release"
expect_error "L4T rootfs without headers" "usr/include/stdio.h is missing" -DJETSON_SYSROOT="$tmp/l4t"
