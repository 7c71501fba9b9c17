#!/usr/bin/env bash
# CPU benchmark: edpbench's three workloads at medium and large against the
# same programs in PyTorch (Debian's python3-torch), same thread count, in
# one run. Prints ms/iteration, the PyTorch/edpbench ratio and GFLOP/s.
#
# usage: scripts/bench-cpu.sh [--threads N] [extra bench/compare.py args]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/setup-deps.sh" --bench
cmake -S "$root" -B "$root/build" -G Ninja >/dev/null
cmake --build "$root/build" --target edpbench >/dev/null
exec /usr/bin/python3 "$root/bench/compare.py" --edpbench "$root/build/src/cli/edpbench" \
  --device cpu "$@"
