#!/usr/bin/env bash
# Prepares the build dependencies of scripts/gpu-check.sh for a GPU machine
# that has CUDA, CMake and ninja but none of edpbench's Debian libraries and
# no network (docs/gpu.md, "Checking on a real GPU"). Run it HERE, on a
# Debian 12 machine that reaches Debian's archive: it downloads the packages
# with `apt-get download` (nothing is installed, the machine's own package
# state is untouched) and unpacks them with `dpkg-deb -x` into a prefix inside
# the repository, .gpu-deps/ (ignored by git). The folder then travels with
# the working tree, and gpu-check.sh finds it through CMAKE_PREFIX_PATH.
#
# What is in it, and what is left out on purpose:
#   Eigen, yaml-cpp (+ its runtime library), CLI11, Catch2, nlohmann-json,
#   libi2c (+ runtime): the libraries edpbench's build requires.
#   OpenBLAS and pybind11 are left out: the GPU check needs neither (the build
#   there is configured with EDPBENCH_WITH_OPENBLAS=OFF, EDPBENCH_BUILD_PYTHON=OFF).
# Documentation is pruned; the prefix is about 18 MB.
#
# Idempotent: a complete prefix for the same package list is kept.
#
# usage: scripts/gpu-deps.sh [--out DIR]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="$root/.gpu-deps"
while [ $# -gt 0 ]; do
  case "$1" in
    --out) out="${2:?--out needs a folder}"; shift 2 ;;
    -h|--help) sed -n '2,21p' "$0"; exit 0 ;;
    *) echo "gpu-deps.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
pkgs=(libeigen3-dev libyaml-cpp-dev libyaml-cpp0.7 libcli11-dev catch2 nlohmann-json3-dev
      libi2c-dev libi2c0)
stamp="$out/.complete"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "${pkgs[*]}" ]; then
  echo "gpu-deps: $out is complete ($(du -sh "$out" | cut -f1))"
  exit 0
fi
command -v apt-get >/dev/null && command -v dpkg-deb >/dev/null ||
  { echo "gpu-deps: needs apt-get and dpkg-deb (a Debian or Ubuntu machine)" >&2; exit 1; }
rm -rf "$out"
mkdir -p "$out/debs" "$out/root"
# apt-get download writes into the current folder; as root it warns that the
# _apt user cannot write there, which is harmless (the download is unsandboxed).
if ! (cd "$out/debs" && apt-get download "${pkgs[@]}" >"$out/download.log" 2>&1); then
  cat "$out/download.log" >&2
  echo "gpu-deps: apt-get download failed for: ${pkgs[*]}" \
    "(is Debian's archive reachable? apt-get update may be needed)" >&2
  exit 1
fi
for deb in "$out"/debs/*.deb; do
  dpkg-deb -x "$deb" "$out/root"
done
rm -rf "$out/root/usr/share/doc" "$out/root/usr/share/man" "$out/root/usr/share/lintian"
# The debs themselves are not needed once unpacked; keep their names for the record.
(cd "$out/debs" && ls) >"$out/packages.txt"
rm -rf "$out/debs" "$out/download.log"
echo "${pkgs[*]}" >"$stamp"
echo "gpu-deps: unpacked $(wc -l <"$out/packages.txt") packages into $out ($(du -sh "$out" | cut -f1));" \
  "scripts/gpu-check.sh uses it as CMAKE_PREFIX_PATH"
