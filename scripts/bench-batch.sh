#!/usr/bin/env bash
# Batch benchmark (issue 11): the batch sweep (N = 1..512 at the `small`
# layer shapes, 2 CPU threads, no power sensor) in edpbench and in PyTorch
# (Debian's python3-torch) on the same machine in one run; prints time per
# sample of both and the PyTorch/edpbench ratio at every N.
#
# usage: scripts/bench-batch.sh [--threads N] [--iterations K] [--runs R]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
threads=2 iterations=20 runs=3
while [ $# -gt 0 ]; do
  case "$1" in
    --threads) threads="$2"; shift 2 ;;
    --iterations) iterations="$2"; shift 2 ;;
    --runs) runs="$2"; shift 2 ;;
    *) echo "unknown argument $1" >&2; exit 2 ;;
  esac
done
/usr/bin/python3 -c 'import torch' 2>/dev/null || "$root/scripts/setup-deps.sh" --bench
cmake -S "$root" -B "$root/build" -G Ninja >/dev/null
cmake --build "$root/build" --target edpbench >/dev/null
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cat >"$work/batch.yaml" <<YAML
name: bench-batch
studies: [batch]
iterations: $iterations
runs: $runs
warmup_iterations: 3
learning_rate: 1.0e-6
init_scale: 0.1
workloads: [tensors, autograd, custom_relu]
sizes:
  small: {n: 64, d_in: 15000, h: 100, d_out: 150}
devices:
  - {kind: cpu, threads: $threads, cpus: all, gemm: auto}
power: {source: none}
batch: {sizes: [small], n: [1, 2, 4, 8, 16, 32, 64, 128, 256, 512]}
YAML
"$root/build/src/cli/edpbench" run --config "$work/batch.yaml" --out "$work/out" 2>"$work/run.log" \
  || { cat "$work/run.log" >&2; exit 1; }
cd "$root/bench"
exec /usr/bin/python3 pytorch_batch.py --edpbench-results "$work/out/results.csv" \
  --threads "$threads" --iterations "$iterations" --runs "$runs"
