#!/usr/bin/env bash
# GPU benchmark: edpbench's CUDA backend against the same programs in PyTorch
# on the same GPU, all sizes, plus the device's SGEMM rate measured in the
# same run. Needs a CUDA build and a python3 whose torch has CUDA (set
# PYTHON=...; the default is the python3 on PATH). EDPBENCH=path uses that
# edpbench binary (scripts/gpu-check.sh passes its own build) instead of
# building build-gpu/.
#
# usage: scripts/bench-gpu.sh [extra bench/compare.py args, e.g. --iterations 100]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
python="${PYTHON:-$(command -v python3 || echo /usr/bin/python3)}"
bin="${EDPBENCH:-}"
if [ -z "$bin" ]; then
  build="${BUILD_DIR:-$root/build-gpu}"
  cmake -S "$root" -B "$build" -G Ninja -DEDPBENCH_WITH_CUDA=ON -DEDPBENCH_BUILD_TESTS=OFF >/dev/null
  cmake --build "$build" --target edpbench >/dev/null
  bin="$build/src/cli/edpbench"
fi
exec "$python" "$root/bench/compare.py" --edpbench "$bin" --device cuda --python "$python" \
  --sizes small,medium,large "$@"
