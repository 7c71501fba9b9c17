#!/usr/bin/env bash
# Installs the Debian packages edpbench needs on a Debian 12 (or Ubuntu)
# machine, through scripts/apt-install.sh: as root or with sudo, without
# recommends; quiet and idempotent when everything is present (no apt command
# runs); apt's own error lines and the package list when apt fails. What each
# set holds and why: docs/ci.md.
#
# usage: scripts/setup-deps.sh [--run] [--fuzz] [--ansible] [--cuda118] [--torch]
#                              [--bench] [--cross aarch64] [--ci]
#   (nothing)        building and running every test (scripts/test.sh)
#   --run            only building and running edpbench (scripts/run.sh)
#   --fuzz           also clang and its runtimes (scripts/fuzz.sh, the sanitizer
#                    builds of ci-sanitizers.sh and ci-gpu-sim.sh)
#   --ansible        also ansible-core, sshd, ssh, python3-apt, iproute2
#                    (scripts/ci-ansible.sh); a newly installed sshd is
#                    never started as a service (/etc/ssh/sshd_not_to_be_run)
#   --cuda118        also g++-11, CUDA 11.8's host compiler (scripts/ci-cuda118.sh)
#   --torch          also python3-torch (scripts/ci-monitor.sh: the example)
#   --bench          also the benchmark scripts' peers (python3-torch, hyperfine)
#   --cross aarch64  also the aarch64 cross toolchain, arm64 libraries and
#                    qemu (scripts/setup-cross-deps.sh)
#   --ci             everything .ci/run needs: the tests' set, --fuzz,
#                    --ansible, --cuda118, --torch and --cross aarch64, and
#                    ccache (its later builds reuse the native build's objects)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"

# build and run: compiler, CMake, and the libraries of DESIGN §8
run_pkgs=(g++ cmake ninja-build libeigen3-dev libyaml-cpp-dev libcli11-dev nlohmann-json3-dev
          libi2c-dev libopenblas-dev libblis-serial-dev pkg-config prometheus-cpp-dev
          libcpp-httplib-dev)
# tests: Catch2; the monitor's Python module (pybind11, Python.h) and its
# tests; numpy checks .npy and the loss arithmetic; systemd-analyze checks the
# units; dpkg-dev (dpkg-shlibdeps) and fakeroot build the .deb, file reads
# its ELF headers; pkg-config finds the installed monitor library; headless
# Chromium renders the HTML report (about 100 MB without recommends);
# prometheus and prometheus-node-exporter scrape the exporter and read the
# textfile in the end-to-end tests, curl fetches /metrics in them (a minimal
# Debian 12 has no curl: the node_exporter and Grafana tests skipped there).
test_pkgs=(catch2 pybind11-dev python3-dev python3 python3-numpy systemd dpkg-dev fakeroot file
           pkg-config chromium prometheus prometheus-node-exporter curl)
# clang and its runtimes (libFuzzer, the sanitizers'), and LLVM's OpenMP: the
# sanitizer builds (ci-sanitizers.sh, ci-gpu-sim.sh) are Clang's, and build
# the workloads with OpenMP as the GCC builds do.
fuzz_pkgs=(clang libclang-rt-dev libomp-dev)
# ansible-playbook; sshd, run by the test itself as `sshd -i` in its network
# namespaces; ip (iproute2) makes those namespaces; python3-apt for the apt
# module.
ansible_pkgs=(ansible-core openssh-server openssh-client python3-apt iproute2)

pkgs=()
tests=1
cross=""
ansible=0
while [ $# -gt 0 ]; do
  case "$1" in
    --run) tests=0; shift ;;
    --fuzz) pkgs+=("${fuzz_pkgs[@]}"); shift ;;
    --ansible) ansible=1; shift ;;
    --cuda118) pkgs+=(g++-11); shift ;;
    --torch) pkgs+=(python3-torch); shift ;;
    --bench) pkgs+=(python3-torch hyperfine); shift ;;
    --cross) cross="${2:?--cross needs an architecture (aarch64)}"; shift 2 ;;
    --ci) pkgs+=("${fuzz_pkgs[@]}" g++-11 python3-torch ccache); ansible=1; cross=aarch64; shift ;;
    -h|--help) sed -n '2,24p' "$0"; exit 0 ;;
    *) echo "setup-deps.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
pkgs=("${run_pkgs[@]}" "${pkgs[@]}")
[ $tests -eq 0 ] || pkgs+=("${test_pkgs[@]}")
if [ $ansible -eq 1 ]; then
  pkgs+=("${ansible_pkgs[@]}")
  # Installing openssh-server starts sshd as a service (systemd, or the init
  # script in a container), listening on port 22 of this machine. The test
  # needs the binary only: Debian's unit and init script do not start sshd
  # while this file exists. Only where this script installs it.
  if ! dpkg-query -W -f='${db:Status-Abbrev}' openssh-server 2>/dev/null | grep -q '^ii' \
     && [ ! -e /etc/ssh/sshd_not_to_be_run ]; then
    sudo_cmd=()
    [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
    "${sudo_cmd[@]}" mkdir -p /etc/ssh
    "${sudo_cmd[@]}" touch /etc/ssh/sshd_not_to_be_run
    echo "setup-deps: created /etc/ssh/sshd_not_to_be_run: the sshd installed for" \
         "scripts/ci-ansible.sh does not run as a service (remove the file to let it)" >&2
  fi
fi
"$here/apt-install.sh" --who setup-deps "${pkgs[@]}"
if [ -n "$cross" ]; then
  "$here/setup-cross-deps.sh" "$cross"
fi
