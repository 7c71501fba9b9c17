#!/usr/bin/env bash
# Builds the edpbench .deb with CPack (cmake/Packaging.cmake).
#
# usage: scripts/build-deb.sh [--arch amd64|arm64] [--jetson SYSROOT] [--no-cuda]
#                             [--build-dir DIR] [--out DIR] [--jobs N] [-- cmake args]
#   --arch amd64   native package (default on an amd64 host; CUDA if nvcc is found)
#   --arch arm64   cross build with toolchains/aarch64-linux-gnu.cmake (CPU only, the
#                  Python module for Debian's arm64 Python); installs the cross
#                  dependencies via scripts/setup-cross-deps.sh
#   --jetson DIR   cross build against an L4T sysroot with CUDA 10.2 (toolchains/jetson.cmake)
# Prints the path of the .deb on stdout (default directory: <build dir>/deb).
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
arch="$(dpkg --print-architecture 2>/dev/null || echo amd64)"
host_arch="$arch"
sysroot=""
cuda=""
build=""
out=""
jobs="${JOBS:-2}"
extra=()
while [ $# -gt 0 ]; do
  case "$1" in
    --arch) arch="$2"; shift 2 ;;
    --jetson) sysroot="$2"; arch=arm64; shift 2 ;;
    --no-cuda) cuda=OFF; shift ;;
    --build-dir) build="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --jobs) jobs="$2"; shift 2 ;;
    --) shift; extra=("$@"); break ;;
    -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
    *) echo "build-deb.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done

for t in cmake cpack dpkg-deb dpkg-shlibdeps; do
  command -v "$t" >/dev/null || {
    echo "build-deb.sh: $t not found (apt-get install cmake dpkg-dev)" >&2; exit 1; }
done

args=(-G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX=/usr -DEDPBENCH_BUILD_TESTS=OFF
      -DEDPBENCH_NATIVE=OFF -DEDPBENCH_GPU_SIM=OFF)
if [ -n "$sysroot" ]; then
  build="${build:-$root/build-deb-jetson}"
  args+=(-DCMAKE_TOOLCHAIN_FILE="$root/toolchains/jetson.cmake" -DJETSON_SYSROOT="$sysroot")
  [ "$cuda" = OFF ] && args+=(-DJETSON_WITH_CUDA=OFF)
elif [ "$arch" != "$host_arch" ]; then
  case "$arch" in
    # The Python module too, for Debian's arm64 Python (setup-cross-deps.sh
    # unpacks it; cmake/CrossPython.cmake).
    arm64) "$root/scripts/setup-cross-deps.sh" aarch64
           args+=(-DCMAKE_TOOLCHAIN_FILE="$root/toolchains/aarch64-linux-gnu.cmake"
                  -DEDPBENCH_BUILD_PYTHON=ON) ;;
    *) echo "build-deb.sh: cannot cross-build for $arch (only arm64)" >&2; exit 2 ;;
  esac
  build="${build:-$root/build-deb-$arch}"
else
  build="${build:-$root/build-deb-$arch}"
  [ "$cuda" = OFF ] && args+=(-DEDPBENCH_WITH_CUDA=OFF)
fi

cmake -S "$root" -B "$build" "${args[@]}" "${extra[@]}" >&2
cmake --build "$build" --target edpbench -j "$jobs" >&2
out="${out:-$build/deb}"   # under build*/, which git ignores
mkdir -p "$out"
(cd "$build" && cpack -G DEB -B "$out" >&2)
rm -rf "$out/_CPack_Packages"
# shellcheck disable=SC2012  # names are edpbench_<version>_<arch>.deb
deb="$(ls -t "$out"/edpbench_*_"$arch".deb | head -n 1)"
dpkg-deb --info "$deb" >&2
echo "$deb"
