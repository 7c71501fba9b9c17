#!/usr/bin/env bash
# One command that checks edpbench's GPU claims on a machine with an NVIDIA GPU
# and writes one report (Markdown). The steps, each recorded with its command,
# exit status, time and the tail of its output:
#   build      CUDA build with the tests (cmake, EDPBENCH_WITH_CUDA=ON)
#   gpu-tests  every [gpu] test case (edp_tests_workloads "[gpu]")
#   memcheck, racecheck, synccheck
#              compute-sanitizer --tool T --error-exitcode 1 on those tests
#   dump       edpbench dump on gpu against reference: the three workloads,
#              small and medium, every iteration's loss within --rel-tol
#              (relative), the initial tensors byte-identical
#   sweep      a quick sweep on the gpu with power.source: nvml (energy from
#              the NVML counter), every run ok with a positive energy
#   bench      scripts/bench-gpu.sh: edpbench against PyTorch CUDA (skipped,
#              and said so, when $PYTHON has no torch with CUDA)
# Without an NVIDIA GPU (no nvidia-smi, nvidia-smi lists no GPU, or
# CUDA_VISIBLE_DEVICES hides them all) it says so and exits 0 having run
# nothing. Otherwise it exits 1 if a step failed, 0 if none did.
#
# usage: scripts/gpu-check.sh [--out DIR] [--build-dir DIR] [--rel-tol X] [--no-bench]
#   --out DIR        report and step outputs (default gpu-check-<date>/)
#   --build-dir DIR  the CUDA build (default build-gpu-check/)
#   --rel-tol X      dump parity tolerance, relative (default 1e-3)
#   --no-bench       leave out the PyTorch benchmark (it takes minutes)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="$root/gpu-check-$(date -u +%Y%m%dT%H%M%SZ)"
build="$root/build-gpu-check"
rel_tol=1e-3
bench=1
while [ $# -gt 0 ]; do
  case "$1" in
    --out) out="${2:?--out needs a folder}"; shift 2 ;;
    --build-dir) build="${2:?--build-dir needs a folder}"; shift 2 ;;
    --rel-tol) rel_tol="${2:?--rel-tol needs a number}"; shift 2 ;;
    --no-bench) bench=0; shift ;;
    -h|--help) sed -n '2,27p' "$0"; exit 0 ;;
    *) echo "gpu-check.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
case "$rel_tol" in
  '' | *[!0-9.eE+-]*) echo "gpu-check.sh: --rel-tol '$rel_tol' is not a number" >&2; exit 2 ;;
esac

# ---- is there a GPU? (nothing is built or written before this answers) -----
no_gpu() {
  echo "gpu-check: no NVIDIA GPU here ($1); nothing was run. On a machine with one," \
    "this script builds with CUDA and checks the GPU claims (see docs/gpu.md)."
  exit 0
}
case "${CUDA_VISIBLE_DEVICES-unset}" in
  unset) ;;
  '' | -1 | none | NoDevFiles) no_gpu "CUDA_VISIBLE_DEVICES='$CUDA_VISIBLE_DEVICES' hides every GPU" ;;
esac
command -v nvidia-smi >/dev/null 2>&1 || no_gpu "no nvidia-smi on PATH, so no NVIDIA driver"
gpus="$(nvidia-smi -L 2>&1)" || no_gpu "nvidia-smi -L failed: $(echo "$gpus" | head -1)"
echo "$gpus" | grep -q '^GPU [0-9]' || no_gpu "nvidia-smi -L lists no GPU: $(echo "$gpus" | head -1)"

# ---- the checks -------------------------------------------------------------
mkdir -p "$out"
report="$out/report.md"
failed=0
declare -a summary=()
python="${PYTHON:-/usr/bin/python3}"
nvcc="$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)"
sanitizer="$(command -v compute-sanitizer || echo "$(dirname "$nvcc")/compute-sanitizer")"
{
  echo "# edpbench gpu-check"
  echo
  echo "- date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "- commit: $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)" \
    "$(git -C "$root" diff --quiet 2>/dev/null || echo '(with local changes)')"
  echo "- GPUs: $(echo "$gpus" | tr '\n' ';')"
  echo "- driver: $(nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>/dev/null | head -1)"
  echo "- nvcc: $("$nvcc" --version 2>/dev/null | tail -1 || echo "not found at $nvcc")"
  echo
} >"$report"

# step NAME COMMAND...: runs it, logs to $out/NAME.log, records the result.
step() {
  local name="$1"; shift
  local t0 rc
  t0=$(date +%s)
  echo "gpu-check: $name ..."
  set +e
  "$@" >"$out/$name.log" 2>&1
  rc=$?
  set -e
  local verdict
  case "$rc" in
    0) verdict=PASS ;;
    77) verdict=SKIPPED ;;
    *) verdict=FAIL; failed=1 ;;
  esac
  summary+=("| $name | $verdict | $rc | $(($(date +%s) - t0)) s |")
  {
    echo "## $name: $verdict (exit $rc, $(($(date +%s) - t0)) s)"
    echo
    echo '```'
    echo "\$ $*"
    tail -n 40 "$out/$name.log"
    echo '```'
    echo
  } >>"$report"
  echo "gpu-check: $name $verdict"
  return 0
}

build_cuda() {
  cmake -S "$root" -B "$build" -G Ninja -DEDPBENCH_WITH_CUDA=ON -DEDPBENCH_BUILD_TESTS=ON \
    -DCMAKE_CUDA_COMPILER="$nvcc" &&
    cmake --build "$build" -j "$(nproc)" &&
    grep -q '^#define EDPBENCH_HAVE_CUDA 1' "$build/generated/edpbench/config.h"
}
step build build_cuda
tests="$build/tests/edp_tests_workloads"
edpbench="$build/src/cli/edpbench"

# The test binary exits 4 when every [gpu] case skipped (no usable device,
# tests/workloads/test_cuda_backend.cpp): on this machine that is a failure.
gpu_tests() {
  local rc=0
  "$@" || rc=$?
  [ "$rc" -ne 4 ] || echo "gpu-check: every [gpu] test skipped: the GPU is not usable (see above)"
  return "$rc"
}
if [ -x "$tests" ]; then
  step gpu-tests gpu_tests "$tests" "[gpu]"
  for tool in memcheck racecheck synccheck; do
    if [ -x "$sanitizer" ]; then
      step "$tool" gpu_tests "$sanitizer" --tool "$tool" --error-exitcode 1 "$tests" "[gpu]"
    else
      step "$tool" sh -c "echo 'compute-sanitizer not found at $sanitizer (CUDA toolkit)'; exit 1"
    fi
  done
else
  summary+=("| tests | FAIL | - | not built: $tests |")
  failed=1
fi

if [ -x "$edpbench" ]; then
  dump_parity() {
    local w s d ok=0
    for w in tensors autograd custom_relu; do
      for s in small medium; do
        for d in gpu reference; do
          "$edpbench" dump --config "$root/configs/quick.yaml" --workload "$w" --size "$s" \
            --device "$d" --iterations 10 --out "$out/dump/$w-$s-$d" || return 1
        done
        for f in x.npy y.npy w1.npy w2.npy; do
          cmp "$out/dump/$w-$s-gpu/$f" "$out/dump/$w-$s-reference/$f" || ok=1
        done
        "$python" - "$out/dump/$w-$s-gpu/loss.csv" "$out/dump/$w-$s-reference/loss.csv" \
          "$rel_tol" "$w $s" <<'EOF' || ok=1
import csv, sys
gpu, ref, tol, label = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4]
read = lambda p: [(int(r["iteration"]), float(r["loss"])) for r in csv.DictReader(open(p))]
g, r = read(gpu), read(ref)
if len(g) != len(r) or not g:
    sys.exit(f"{label}: {len(g)} gpu iterations, {len(r)} reference")
worst = max(abs(a[1] - b[1]) / max(abs(b[1]), 1e-30) for a, b in zip(g, r))
print(f"{label}: {len(g)} iterations, max relative difference {worst:.2e} (tolerance {tol:g})")
sys.exit(0 if worst <= tol else 1)
EOF
      done
    done
    return $ok
  }
  step dump dump_parity

  nvml_sweep() {
    sed -e 's/^\(  source:\).*/\1 nvml/' -e "s|^output:.*|output: {dir: $out/sweep}|" \
      "$root/configs/quick.yaml" >"$out/quick-nvml.yaml"
    grep -q '^  source: nvml' "$out/quick-nvml.yaml" || { echo "no power.source in quick.yaml"; return 1; }
    "$edpbench" run --config "$out/quick-nvml.yaml" --out "$out/sweep" --devices gpu \
      --sizes small --runs 2 --iterations 10 || return 1
    "$python" - "$out/sweep" <<'EOF'
import csv, os, sys
d = sys.argv[1]
results = list(csv.DictReader(open(os.path.join(d, "results.csv"))))
runs = list(csv.DictReader(open(os.path.join(d, "runs.csv"))))
if not results or not runs:
    sys.exit(f"{d}: no results or no runs")
bad = [r["workload"] + "/" + r["size"] + ": " + r["status"] + " " + r["note"]
       for r in results if r["status"] != "ok" or "nvml" not in r["power_source"]]
energy = [float(r["energy_j"]) if r["energy_j"] else 0.0 for r in runs]
print(f"{len(results)} configurations, {len(runs)} runs, energy_j {min(energy):.3g} .. "
      f"{max(energy):.3g} J, power_source {sorted({r['power_source'] for r in results})}")
for b in bad:
    print("not ok (or not NVML):", b)
sys.exit(1 if bad or min(energy) <= 0 else 0)
EOF
  }
  step sweep nvml_sweep
else
  summary+=("| dump, sweep | FAIL | - | not built: $edpbench |")
  failed=1
fi

if [ "$bench" -eq 1 ]; then
  bench_gpu() {
    if ! "$python" -c 'import sys, torch; sys.exit(0 if torch.cuda.is_available() else 1)' \
      2>/dev/null; then
      echo "SKIPPED: $python has no torch with CUDA (set PYTHON=a python whose torch has CUDA)"
      return 77
    fi
    BUILD_DIR="$build-bench" PYTHON="$python" "$root/scripts/bench-gpu.sh"
  }
  step bench bench_gpu
fi

{
  echo "## Summary"
  echo
  echo "| step | result | exit | time |"
  echo "| --- | --- | ---: | ---: |"
  printf '%s\n' "${summary[@]}"
} >>"$report"
echo "gpu-check: report in $report"
printf '%s\n' "${summary[@]}"
exit "$failed"
