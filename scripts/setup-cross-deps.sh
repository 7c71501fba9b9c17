#!/usr/bin/env bash
# Installs what the aarch64 cross build (toolchains/aarch64-linux-gnu.cmake)
# needs on a Debian 12 / Ubuntu amd64 host: the cross g++, the arm64 multiarch
# libraries, and qemu-user to run the tests. Idempotent and quiet when
# everything is already there. Called by scripts/setup-deps.sh --cross aarch64
# and by scripts/ci-cross.sh.
#
# usage: scripts/setup-cross-deps.sh [aarch64]
#
# Why the overlay: Debian's libyaml-cpp-dev is "Multi-Arch: no", so the arm64
# package cannot be installed next to the amd64 one the native build uses.
# The arm64 runtime library (libyaml-cpp0.7, Multi-Arch: same) is installed
# with apt; the arm64 -dev package (CMake config, .so link, headers) is
# unpacked with dpkg -x into EDPBENCH_CROSS_OVERLAY, where the toolchain file
# looks for it. apt-get download fetches the candidate version, which equals
# the installed runtime's version.
set -euo pipefail

arch_gnu="${1:-aarch64}"
case "$arch_gnu" in
  aarch64|arm64) arch_gnu=aarch64; arch_deb=arm64 ;;
  *) echo "setup-cross-deps.sh: unsupported architecture '$arch_gnu' (only aarch64)" >&2; exit 2 ;;
esac
overlay="${EDPBENCH_CROSS_OVERLAY:-/opt/edpbench-cross/$arch_deb}"

log() { echo "setup-cross-deps: $*" >&2; }
sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi

if ! command -v dpkg >/dev/null || ! command -v apt-get >/dev/null; then
  log "needs a Debian/Ubuntu host (dpkg, apt-get)"; exit 1
fi
host_arch="$(dpkg --print-architecture)"
if [ "$host_arch" = "$arch_deb" ]; then
  log "host is already $arch_deb: use scripts/setup-deps.sh, no cross toolchain needed"; exit 0
fi

# Packages with their architecture qualifier. The runtime ones (:arm64) are
# needed by qemu to run the tests and by dpkg-shlibdeps to compute Depends.
pkgs=(
  "g++-${arch_gnu}-linux-gnu" qemu-user cmake ninja-build dpkg-dev file
  libeigen3-dev libcli11-dev catch2 nlohmann-json3-dev
  "libc6:$arch_deb" "libstdc++6:$arch_deb" "libgcc-s1:$arch_deb" "libgomp1:$arch_deb"
  "libyaml-cpp0.7:$arch_deb" "libi2c0:$arch_deb" "libi2c-dev:$arch_deb"
  "libopenblas0-pthread:$arch_deb" "libopenblas-dev:$arch_deb"
)

installed() { dpkg-query -W -f='${db:Status-Abbrev}' "$1" 2>/dev/null | grep -q '^ii'; }

missing=()
for p in "${pkgs[@]}"; do installed "$p" || missing+=("$p"); done
overlay_ok=0
[ -f "$overlay/usr/lib/${arch_gnu}-linux-gnu/cmake/yaml-cpp/yaml-cpp-config.cmake" ] && overlay_ok=1

if [ ${#missing[@]} -eq 0 ] && [ $overlay_ok -eq 1 ]; then
  exit 0
fi

if ! dpkg --print-foreign-architectures | grep -qx "$arch_deb"; then
  log "adding dpkg architecture $arch_deb"
  "${sudo_cmd[@]}" dpkg --add-architecture "$arch_deb"
  "${sudo_cmd[@]}" apt-get update -qq
fi

if [ ${#missing[@]} -ne 0 ]; then
  log "installing: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  if ! "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null; then
    # A Multi-Arch: same package must have the same version for every
    # architecture. Right after a point release the arm64 index can lag;
    # retry once after refreshing the indexes, and say what to do otherwise.
    "${sudo_cmd[@]}" apt-get update -qq
    "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null || {
      log "apt-get install failed. If apt reports 'version mismatch' for a Multi-Arch: same"
      log "package, upgrade the amd64 copy first (apt-get install --only-upgrade <pkg>)"
      exit 1
    }
  fi
fi

if [ $overlay_ok -eq 0 ]; then
  log "unpacking libyaml-cpp-dev:$arch_deb into $overlay"
  tmp="$(mktemp -d)"
  trap 'rm -rf "$tmp"' EXIT
  ver="$(dpkg-query -W -f='${Version}' "libyaml-cpp0.7:$arch_deb")"
  # World-writable so that apt's unprivileged _apt user can write there.
  chmod 777 "$tmp"
  (cd "$tmp" && apt-get download -qq "libyaml-cpp-dev:$arch_deb=$ver")
  "${sudo_cmd[@]}" mkdir -p "$overlay"
  "${sudo_cmd[@]}" dpkg-deb -x "$tmp"/libyaml-cpp-dev_*_"$arch_deb".deb "$overlay"
  # The package's .so link and its CMake targets file name
  # libyaml-cpp.so.0.7[.0] next to themselves; those files come from the
  # apt-installed libyaml-cpp0.7:arm64 in the real /usr/lib/<triplet>.
  libdir="/usr/lib/${arch_gnu}-linux-gnu"
  for so in "$libdir"/libyaml-cpp.so.*; do
    "${sudo_cmd[@]}" ln -sfn "$so" "$overlay$libdir/$(basename "$so")"
  done
fi
log "ready (overlay: $overlay)"
