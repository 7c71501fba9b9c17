#!/usr/bin/env bash
# CPU thread scaling (issue 17): per size and workload, edpbench's cpu backend
# on 1 and 2 threads (ms/iteration, medians of interleaved rounds), the
# scaling ratio, the GEMM path `gemm: auto` chose, and PyTorch (Debian's
# python3-torch) with the same threads.
#
# usage: scripts/bench-cpu-scaling.sh [--sizes small,medium] [--rounds 3] [...]
#        (see bench/cpu_scaling.py --help)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
"$root/scripts/setup-deps.sh" --bench
cmake -S "$root" -B "$root/build" -G Ninja >/dev/null
cmake --build "$root/build" --target edpbench >/dev/null
exec /usr/bin/python3 "$root/bench/cpu_scaling.py" --edpbench "$root/build/src/cli/edpbench" "$@"
