#!/usr/bin/env bash
# Installs the Debian packages edpbench needs to build and test on a Debian 12
# (or Ubuntu) machine. Idempotent: when everything is present it prints nothing
# and runs no apt command.
#
# usage: scripts/setup-deps.sh [--bench] [--cuda118] [--cross aarch64]
#   --bench          also the peers of the benchmark scripts (python3-torch)
#   --cuda118        also g++-11, the host compiler of CUDA 11.8 (scripts/ci-cuda118.sh)
#   --cross aarch64  also the aarch64 cross toolchain and qemu (scripts/setup-cross-deps.sh)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"

# build: compiler, CMake, and the libraries of DESIGN §8
pkgs=(g++ cmake ninja-build pkg-config libeigen3-dev libyaml-cpp-dev libcli11-dev catch2
      nlohmann-json3-dev libi2c-dev libopenblas-dev)
# the monitor API's Python module (python/, DESIGN §11)
pkgs+=(pybind11-dev python3-dev)
# tests: numpy checks .npy and the loss arithmetic; systemd-analyze checks the
# units; dpkg-dev (dpkg-shlibdeps) and fakeroot build the .deb
pkgs+=(python3 python3-numpy systemd dpkg-dev fakeroot file)
# checks: clang and its runtimes build the libFuzzer targets (scripts/fuzz.sh);
# headless Chromium renders the HTML report (tests/deploy/check-report-browser.sh,
# about 100 MB with --no-install-recommends). The GCC sanitizer runtimes
# (ASan, UBSan, TSan) come with g++.
pkgs+=(clang libclang-rt-dev chromium)
# the Ansible deployment's CI stage (scripts/ci-ansible.sh): ansible-playbook,
# sshd for the test's own SSH hosts, python3-apt for the apt module
pkgs+=(ansible-core openssh-server openssh-client python3-apt)
cross=""
while [ $# -gt 0 ]; do
  case "$1" in
    --bench) pkgs+=(python3-torch hyperfine); shift ;;
    --cuda118) pkgs+=(g++-11); shift ;;
    --cross) cross="${2:?--cross needs an architecture (aarch64)}"; shift 2 ;;
    -h|--help) sed -n '2,10p' "$0"; exit 0 ;;
    *) echo "setup-deps.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done

missing=()
for p in "${pkgs[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  echo "setup-deps: installing ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -qq >/dev/null
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
if [ -n "$cross" ]; then
  "$here/setup-cross-deps.sh" "$cross"
fi
