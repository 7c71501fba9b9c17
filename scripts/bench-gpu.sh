#!/usr/bin/env bash
# GPU benchmark: edpbench's CUDA backend against the same programs in PyTorch
# on the same GPU, all sizes, plus the device's SGEMM rate measured in the
# same run. Needs a CUDA build and a python3 whose torch has CUDA (set
# PYTHON=...; the default is /usr/bin/python3).
#
# usage: scripts/bench-gpu.sh [extra bench/compare.py args]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${BUILD_DIR:-$root/build-gpu}"
cmake -S "$root" -B "$build" -G Ninja -DEDPBENCH_WITH_CUDA=ON -DEDPBENCH_BUILD_TESTS=OFF >/dev/null
cmake --build "$build" --target edpbench >/dev/null
exec "${PYTHON:-/usr/bin/python3}" "$root/bench/compare.py" --edpbench "$build/src/cli/edpbench" \
  --device cuda --python "${PYTHON:-/usr/bin/python3}" --sizes small,medium,large "$@"
