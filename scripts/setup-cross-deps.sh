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
#
# The target's Python (for the Python module edpbench and its tests under
# qemu): the distribution's python3 version for arm64 (3.11 on Debian 12),
# unpacked from Debian's packages with dpkg -x into the same overlay:
# python3.X-minimal (the interpreter), libpython3.X-minimal and -stdlib (the
# standard library), libpython3.X-dev (Python.h and the arm64 pyconfig.h),
# and the interpreter's own runtime libraries zlib1g and libexpat1. They are
# not installed with apt: python3.X-minimal is "Multi-Arch: allowed" and
# cannot sit next to the amd64 interpreter, and the Multi-Arch: same runtime
# libraries would have to match the host's versions exactly. Nothing runs
# from the overlay on the host: the tests run the interpreter under
# qemu-aarch64 -L <overlay> (cmake/CrossPython.cmake).
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
# The distribution's Python version for the target (3.11 on Debian 12), from
# the local package index: empty, not an error, while the index has no
# $arch_deb packages (the architecture not added yet, or no apt-get update
# since).
target_python_version() {
  apt-cache show --no-all-versions "python3:$arch_deb" 2>/dev/null \
    | sed -n 's/^Version: \([0-9]*\.[0-9]*\).*/\1/p' | head -n 1 || true
}
python_unpacked() {
  [ -x "$overlay/usr/bin/python$1" ] \
    && [ -f "$overlay/usr/include/${arch_gnu}-linux-gnu/python$1/pyconfig.h" ] \
    && [ -e "$overlay/lib/${arch_gnu}-linux-gnu/libz.so.1" ] \
    && [ -e "$overlay/lib/${arch_gnu}-linux-gnu/libexpat.so.1" ]
}

missing=()
for p in "${pkgs[@]}"; do installed "$p" || missing+=("$p"); done
overlay_ok=0
[ -f "$overlay/usr/lib/${arch_gnu}-linux-gnu/cmake/yaml-cpp/yaml-cpp-config.cmake" ] && overlay_ok=1
py_ver="${EDPBENCH_CROSS_PYTHON:-$(target_python_version)}"
py_ok=0
[ -n "$py_ver" ] && python_unpacked "$py_ver" && py_ok=1
if [ ${#missing[@]} -eq 0 ] && [ $overlay_ok -eq 1 ] && [ $py_ok -eq 1 ]; then
  exit 0
fi

# apt's lists, refreshed once in this run before anything reads them: a new
# machine may have none, and a newly added architecture has none.
updated=0
ensure_index() {
  [ $updated -eq 0 ] || return 0
  local out
  out="$(mktemp)"
  if ! "${sudo_cmd[@]}" apt-get -q -o DPkg::Lock::Timeout=300 update >"$out" 2>&1; then
    log "apt-get update failed; apt said:"
    grep -v -E '^(Get|Hit|Ign):' "$out" | tail -n 40 | sed 's/^/    /' >&2
    rm -f "$out"
    exit 1
  fi
  rm -f "$out"
  updated=1
}

if ! dpkg --print-foreign-architectures | grep -qx "$arch_deb"; then
  log "adding dpkg architecture $arch_deb (dpkg --add-architecture $arch_deb)"
  "${sudo_cmd[@]}" dpkg --add-architecture "$arch_deb"
fi

if [ ${#missing[@]} -ne 0 ]; then
  # apt-install.sh refreshes the lists first.
  if ! "$(dirname "$0")/apt-install.sh" --who setup-cross-deps "${missing[@]}"; then
    # A Multi-Arch: same package must have the same version for every
    # architecture; right after a point release the arm64 index can lag.
    log "if apt reports a version mismatch for a Multi-Arch: same package, upgrade the"
    log "$host_arch copy first (apt-get install --only-upgrade <package>), then run this again"
    exit 1
  fi
  updated=1
fi

if [ $overlay_ok -eq 0 ]; then
  log "unpacking libyaml-cpp-dev:$arch_deb into $overlay"
  tmp="$(mktemp -d)"
  trap 'rm -rf "$tmp"' EXIT
  ver="$(dpkg-query -W -f='${Version}' "libyaml-cpp0.7:$arch_deb")"
  # World-writable so that apt's unprivileged _apt user can write there.
  chmod 777 "$tmp"
  ensure_index
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

if [ -z "$py_ver" ]; then
  ensure_index
  py_ver="$(target_python_version)"
  [ -n "$py_ver" ] || { log "no python3:$arch_deb in apt's package index after apt-get update"; exit 1; }
  python_unpacked "$py_ver" && py_ok=1
fi
if [ $py_ok -eq 0 ]; then
  py_pkgs=("python$py_ver-minimal" "libpython$py_ver-minimal" "libpython$py_ver-stdlib"
           "libpython$py_ver-dev" zlib1g libexpat1)
  tmp_py="$(mktemp -d)"
  chmod 777 "$tmp_py"  # apt's unprivileged _apt user writes there
  ensure_index
  (cd "$tmp_py" && apt-get download -qq "${py_pkgs[@]/%/:$arch_deb}") || {
    rm -rf "$tmp_py"
    log "apt-get download of ${py_pkgs[*]} ($arch_deb) failed: run apt-get update, or set"
    log "EDPBENCH_CROSS_PYTHON to a Python version the $arch_deb index has (apt-cache policy python3:$arch_deb)"
    exit 1
  }
  "${sudo_cmd[@]}" mkdir -p "$overlay"
  for d in "$tmp_py"/*.deb; do "${sudo_cmd[@]}" dpkg-deb -x "$d" "$overlay"; done
  log "unpacked into $overlay (target Python $py_ver):" \
      "$(cd "$tmp_py" && ls -- *.deb | sed 's/_[^_]*\.deb$//' | tr '\n' ' ')"
  rm -rf "$tmp_py"
fi
log "ready (overlay: $overlay, target Python $py_ver: $overlay/usr/bin/python$py_ver)"
