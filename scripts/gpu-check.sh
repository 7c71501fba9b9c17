#!/usr/bin/env bash
# One command that checks edpbench's GPU claims on a machine with an NVIDIA GPU
# and writes one report (Markdown). It is made to finish inside one
# 10-minute command on a borrowed GPU machine that has CUDA, CMake, ninja and
# PyTorch but none of edpbench's Debian libraries and no network: those come
# from .gpu-deps/ (scripts/gpu-deps.sh, run beforehand on a Debian machine),
# found through CMAKE_PREFIX_PATH. The steps, each with its command, exit
# status, time and the tail of its output, in this order:
#   build      the CUDA build of edpbench and edp_tests_workloads for this GPU's
#              architecture (nvidia-smi's compute capability, or --arch)
#   gpu-tests  every [gpu] test case; the count run, passed and skipped
#   nvml       sensors --source nvml and measure --power-source nvml -- sleep 1:
#              the NVML rails found, a positive energy
#   sweep      run on the gpu with power.source: nvml (min_run_s: auto), the
#              three workloads, small and medium: every configuration ok, from
#              NVML, every run's energy_j > 0
#   bench      scripts/bench-gpu.sh: edpbench against PyTorch CUDA at the
#              paper's three sizes (SKIPPED when python3 has no torch with CUDA)
#   then at once, each bounded by what is left of --deadline-s:
#   memcheck, racecheck, synccheck, initcheck
#              compute-sanitizer --tool T on the [gpu] tests (exit 99 = the tool
#              reported errors; another non-zero exit = a test failed under it);
#              failed API calls count, except in the [api-error] cases, which
#              fail one on purpose
#   dump       edpbench dump on gpu against reference: the three workloads,
#              small and medium, the initial tensors byte-identical, every
#              iteration's loss within --rel-tol (relative)
# A step that runs out of time is TIMEOUT; one that the deadline left no time
# for is NOT RUN. Without an NVIDIA GPU (no nvidia-smi, nvidia-smi lists no
# GPU, or CUDA_VISIBLE_DEVICES hides them all) it says so and exits 0 having
# run and written nothing, unless --rehearse (every step runs; the GPU steps
# then skip or fail, which is the point: the build, the dependencies and the
# script itself are checked before a GPU machine is borrowed). Otherwise it
# exits 1 if a step failed, 0 if none did.
#
# usage: scripts/gpu-check.sh [--out DIR] [--bundle DIR] [--build-dir DIR]
#          [--deps DIR] [--arch SM] [--deadline-s S] [--steps a,b] [--rel-tol X]
#          [--no-bench] [--rehearse]
#   --out DIR        report and step outputs (default gpu-check-<date>/)
#   --bundle DIR     also copy the report into DIR as at most 4 files:
#                    report.md, bench.txt, sanitizers.txt, logs.tar.gz
#   --build-dir DIR  the CUDA build (default build-gpu-check/)
#   --deps DIR       unpacked Debian packages (default .gpu-deps/, if present)
#   --arch SM        CUDA architecture, e.g. 90 (default: the GPU's own)
#   --deadline-s S   the whole script ends within S seconds (default 540)
#   --steps LIST     only these steps (a rerun of what failed); build always runs
#   --rel-tol X      dump parity tolerance, relative (default 1e-3)
#   --no-bench       leave out the PyTorch benchmark
#   --rehearse       run every step without a GPU (see above)
set -euo pipefail
start_s=$(date +%s)
root="$(cd "$(dirname "$0")/.." && pwd)"
out="$root/gpu-check-$(date -u +%Y%m%dT%H%M%SZ)"
build="$root/build-gpu-check"
deps="$root/.gpu-deps"
bundle=""
arch=""
deadline_s=540
only=""
rel_tol=1e-3
bench=1
rehearse=0
while [ $# -gt 0 ]; do
  case "$1" in
    --out) out="${2:?--out needs a folder}"; shift 2 ;;
    --bundle) bundle="${2:?--bundle needs a folder}"; shift 2 ;;
    --build-dir) build="${2:?--build-dir needs a folder}"; shift 2 ;;
    --deps) deps="${2:?--deps needs a folder}"; shift 2 ;;
    --arch) arch="${2:?--arch needs an architecture, e.g. 90}"; shift 2 ;;
    --deadline-s) deadline_s="${2:?--deadline-s needs seconds}"; shift 2 ;;
    --steps) only=",${2:?--steps needs a list},"; shift 2 ;;
    --rel-tol) rel_tol="${2:?--rel-tol needs a number}"; shift 2 ;;
    --no-bench) bench=0; shift ;;
    --rehearse) rehearse=1; shift ;;
    -h|--help) sed -n '2,46p' "$0"; exit 0 ;;
    *) echo "gpu-check.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
case "$rel_tol" in
  '' | *[!0-9.eE+-]*) echo "gpu-check.sh: --rel-tol '$rel_tol' is not a number" >&2; exit 2 ;;
esac
case "$deadline_s" in
  '' | *[!0-9]*) echo "gpu-check.sh: --deadline-s '$deadline_s' is not a whole number" >&2; exit 2 ;;
esac
case "$arch" in
  *[!0-9a-z]*) echo "gpu-check.sh: --arch '$arch' is not an architecture such as 90" >&2; exit 2 ;;
esac

# ---- is there a GPU? (nothing is built or written before this answers) -----
no_gpu() {
  if [ "$rehearse" -eq 1 ]; then
    echo "gpu-check: rehearsal without a GPU ($1): every step runs; GPU steps will skip or fail"
    gpus="(none: rehearsal, $1)"
    return 0
  fi
  echo "gpu-check: no NVIDIA GPU here ($1); nothing was run. On a machine with one," \
    "this script builds with CUDA and checks the GPU claims (see docs/gpu.md)."
  exit 0
}
gpus=""
check_gpu() {
  case "${CUDA_VISIBLE_DEVICES-unset}" in
    unset) ;;
    '' | -1 | none | NoDevFiles)
      no_gpu "CUDA_VISIBLE_DEVICES='$CUDA_VISIBLE_DEVICES' hides every GPU"; return ;;
  esac
  command -v nvidia-smi >/dev/null 2>&1 || { no_gpu "no nvidia-smi on PATH, so no NVIDIA driver"; return; }
  gpus="$(nvidia-smi -L 2>&1)" || { no_gpu "nvidia-smi -L failed: $(echo "$gpus" | head -1)"; return; }
  echo "$gpus" | grep -q '^GPU [0-9]' || no_gpu "nvidia-smi -L lists no GPU: $(echo "$gpus" | head -1)"
}
check_gpu

# ---- set-up -------------------------------------------------------------------
mkdir -p "$out/logs" "$out/steps"
report="$out/report.md"
end_s=$((start_s + deadline_s))
python="${PYTHON:-$(command -v python3 || echo /usr/bin/python3)}"
nvcc="${CUDACXX:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}"
sanitizer="$(command -v compute-sanitizer || echo "$(dirname "$nvcc")/compute-sanitizer")"
jobs="$(nproc 2>/dev/null || echo 4)"
if [ -z "$arch" ]; then
  cc="$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -1 | tr -d ' .')" || cc=""
  case "$cc" in '' | *[!0-9]*) arch=native ;; *) arch="$cc" ;; esac
  [ "$rehearse" -eq 0 ] || [ "$arch" != native ] || arch=90
fi
prefix=""
[ -d "$deps/root/usr" ] && prefix="$deps/root/usr"
export root out build python nvcc sanitizer jobs rel_tol
edpbench="$build/src/cli/edpbench"
tests="$build/tests/edp_tests_workloads"
export edpbench tests

smi() { nvidia-smi "$@" 2>/dev/null | head -3 | tr '\n' ' ' || true; }
{
  echo "# edpbench gpu-check"
  echo
  echo "- date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  # GPU_CHECK_COMMIT names the commit where the copy on the GPU machine has no .git.
  if git -C "$root" rev-parse --short HEAD >/dev/null 2>&1; then
    echo "- commit: $(git -C "$root" rev-parse --short HEAD)" \
      "$(git -C "$root" diff --quiet 2>/dev/null || echo '(with local changes)')"
  else
    echo "- commit: ${GPU_CHECK_COMMIT:-unknown} (a copy without .git)"
  fi
  echo "- GPUs: $(echo "$gpus" | tr '\n' ';')"
  echo "- GPU: $(smi --query-gpu=name,compute_cap,memory.total,clocks.max.sm,clocks.max.mem,power.limit,pstate --format=csv)"
  echo "- driver: $(smi --query-gpu=driver_version --format=csv,noheader);" \
    "CUDA (driver): $(nvidia-smi 2>/dev/null | grep -o 'CUDA Version: [0-9.]*' | head -1 || true)"
  echo "- nvcc: $("$nvcc" --version 2>/dev/null | tail -1 || echo "not found at $nvcc")"
  echo "- compute-sanitizer: $("$sanitizer" --version 2>/dev/null | tail -1 || echo "not found at $sanitizer")"
  echo "- python: $python ($("$python" -c 'import sys, torch; print(sys.version.split()[0], "torch", torch.__version__, "cuda", torch.version.cuda)' 2>/dev/null || echo 'no torch'))"
  echo "- host: $(uname -srm), $jobs CPUs, $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2- | sed 's/^ *//')"
  echo "- architecture built: $arch; dependencies: ${prefix:-from the system}"
  echo "- one run on one machine is one sample: every figure below is that, not a distribution"
  echo
} >"$report"

# ---- steps --------------------------------------------------------------------
wanted() { [ -z "$only" ] || [ "$1" = build ] || [[ "$only" == *",$1,"* ]]; }

# step NAME CAP_S FUNCTION: runs FUNCTION (exported) under `timeout`, its
# output in logs/NAME.log, its result in steps/NAME (status, exit, seconds).
# The time allowed is CAP_S or what is left before the deadline, if less.
step() {
  local name="$1" cap="$2" fn="$3" t0 left rc verdict
  wanted "$name" || return 0
  t0=$(date +%s)
  left=$((end_s - t0 - 15))
  [ "$cap" -le "$left" ] || cap="$left"
  if [ "$cap" -lt 5 ]; then
    printf 'NOT RUN\t-\t0\tno time left before the %s s deadline\n' "$deadline_s" >"$out/steps/$name"
    echo "gpu-check: $name NOT RUN (deadline)"
    return 0
  fi
  echo "gpu-check: $name (at most $cap s) ..."
  rc=0
  timeout -k 10 "$cap" bash -c "$fn" >"$out/logs/$name.log" 2>&1 || rc=$?
  case "$rc" in
    0) verdict=PASS ;;
    77) verdict=SKIPPED ;;
    124 | 137) verdict=TIMEOUT ;;
    *) verdict=FAIL ;;
  esac
  printf '%s\t%s\t%s\t%s\n' "$verdict" "$rc" "$(($(date +%s) - t0))" "$(step_note "$name")" \
    >"$out/steps/$name"
  echo "gpu-check: $name $verdict (exit $rc, $(($(date +%s) - t0)) s)"
}
# One line from a step's log for the summary table.
step_note() {
  local log="$out/logs/$1.log"
  [ -f "$log" ] || return 0
  case "$1" in
    gpu-tests) grep -E '^(All tests passed|test cases:)' "$log" | tail -1 ;;
    memcheck | racecheck | synccheck | initcheck)
      { grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$log" | sed 's/=* *//'
        grep -E '^(All tests passed|test cases:)' "$log"; } | tr '\n' ' ' ;;
    *) grep -E '^(summary|SKIPPED|worst)' "$log" | tail -1 ;;
  esac | tr '|\t' '/ ' | cut -c1-160
}

build_cuda() {
  local prefix_arg=()
  [ -z "$prefix" ] || prefix_arg=(-DCMAKE_PREFIX_PATH="$prefix")
  cmake -S "$root" -B "$build" -G Ninja -DEDPBENCH_WITH_CUDA=ON -DEDPBENCH_BUILD_TESTS=ON \
    -DEDPBENCH_BUILD_PYTHON=OFF -DEDPBENCH_WITH_OPENBLAS=OFF -DCMAKE_CUDA_COMPILER="$nvcc" \
    -DCMAKE_CUDA_ARCHITECTURES="$arch" "${prefix_arg[@]}" &&
    cmake --build "$build" -j "$jobs" --target edpbench edp_tests_workloads &&
    grep -q '^#define EDPBENCH_HAVE_CUDA 1' "$build/generated/edpbench/config.h" &&
    grep -E 'HAVE_CUDNN' "$build/generated/edpbench/config.h"
}
export prefix arch
export -f build_cuda
step build 300 build_cuda

# The test binary exits 77 when every [gpu] case skipped (no usable device,
# tests/support/skip.h): a failure here, SKIPPED in a rehearsal.
gpu_tests() {
  local rc=0
  "$tests" "[gpu]" --durations yes || rc=$?
  echo "skipped test cases: $(grep -c 'skipped: ' "$out/logs/gpu-tests.log" || true)"
  if [ "$rc" -eq 77 ]; then
    echo "gpu-check: every [gpu] test skipped: the GPU is not usable (see above)"
    [ "${GPU_CHECK_REHEARSE:-0}" -eq 1 ] && return 77
  fi
  return "$rc"
}
export GPU_CHECK_REHEARSE=$rehearse
export -f gpu_tests
step gpu-tests 120 gpu_tests

nvml_check() {
  "$edpbench" sensors --source nvml --samples 3 --interval-s 0.2 || return 1
  "$edpbench" sensors --source nvml --measure-s 3 --rate-hz 100 || return 1
  "$edpbench" measure --power-source nvml --runs 2 --csv "$out/logs/measure.csv" -- sleep 1 || return 1
  "$python" - "$out/logs/measure.csv" <<'EOF'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
e = [float(r["energy_j"]) for r in rows if r.get("energy_j")]
print(f"summary: measure -- sleep 1: {len(rows)} runs, energy_j {e}")
sys.exit(0 if len(e) == len(rows) and rows and min(e) > 0 else 1)
EOF
}
export -f nvml_check
step nvml 60 nvml_check

nvml_sweep() {
  cat >"$out/sweep-nvml.yaml" <<EOF
name: gpu-check-nvml
iterations: 200
runs: 3
warmup_iterations: 5
seed: 0
learning_rate: 1.0e-6
init_scale: 0.1
workloads: [tensors, autograd, custom_relu]
sizes:
  small:  {n: 64,  d_in: 15000, h: 100, d_out: 150}
  medium: {n: 192, d_in: 20000, h: 300, d_out: 200}
devices: [{kind: gpu, index: 0}]
power: {source: nvml, rate_hz: 100, baseline_s: 2, min_run_s: auto}
output: {dir: $out/sweep}
EOF
  "$edpbench" run --config "$out/sweep-nvml.yaml" --out "$out/sweep" || return 1
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
for r in results:
    print(f'{r["workload"]}/{r["size"]}: {r["status"]} time_s {r["time_s_mean"]} '
          f'energy_j {r["energy_j_mean"]} power_w {r.get("power_w_mean", "")} note {r["note"]}')
print(f"summary: {len(results)} configurations, {len(runs)} runs, energy_j {min(energy):.3g} .. "
      f"{max(energy):.3g} J, power_source {sorted({r['power_source'] for r in results})}")
for b in bad:
    print("not ok (or not NVML):", b)
sys.exit(1 if bad or min(energy) <= 0 else 0)
EOF
}
export -f nvml_sweep
step sweep 150 nvml_sweep

bench_gpu() {
  if ! "$python" -c 'import sys, torch; sys.exit(0 if torch.cuda.is_available() else 1)' \
    2>/dev/null; then
    echo "SKIPPED: $python has no torch with CUDA (set PYTHON=a python whose torch has CUDA)"
    return 77
  fi
  EDPBENCH="$edpbench" PYTHON="$python" "$root/scripts/bench-gpu.sh" --iterations 100 --runs 5 \
    --rounds 2 | tee "$out/bench.txt"
  [ "${PIPESTATUS[0]}" -eq 0 ] || return 1
  echo "summary: $(grep '^median ratio' "$out/bench.txt")"
}
export -f bench_gpu
[ "$bench" -eq 0 ] || step bench 200 bench_gpu

# ---- the sanitizers and the dump parity, at once --------------------------------
sanitize() {  # sanitize TOOL
  if [ ! -x "$sanitizer" ]; then
    echo "compute-sanitizer not found at $sanitizer (CUDA toolkit)"
    return 1
  fi
  local extra=() rc=0 spec="[gpu]~[api-error]"
  # racecheck tracks every shared-memory access, cuBLAS's too: on an H200 four
  # 1024^3 GEMMs took 12.4 s under it, and the timer cases, which double their
  # steps until 20 ms of GPU time, ran past the step's deadline. Timing means
  # nothing under instrumentation; racecheck leaves the [timing] cases out
  # (memcheck, synccheck and initcheck still run them for their API calls).
  if [ "$1" = racecheck ]; then
    extra=(--racecheck-report all)
    spec="[gpu]~[api-error]~[timing]"
  fi
  # Every failed API call is an error to the tool, as it should be, except in
  # the cases that fail a call on purpose (tagged [api-error], an allocation
  # larger than the GPU): those run with API errors unreported.
  "$sanitizer" --tool "$1" "${extra[@]}" --error-exitcode 99 --print-limit 30 \
    --target-processes all "$tests" "$spec" --durations yes || rc=$?
  "$sanitizer" --tool "$1" "${extra[@]}" --report-api-errors no --error-exitcode 99 \
    --print-limit 30 --target-processes all "$tests" "[gpu][api-error]" --durations yes || rc=$?
  return "$rc"
}
export -f sanitize

dump_parity() {
  local w s d ok=0
  mkdir -p "$out/dump"
  for w in tensors autograd custom_relu; do
    for s in small medium; do
      for d in gpu reference; do
        "$edpbench" dump --config "$root/configs/default.yaml" --workload "$w" --size "$s" \
          --device "$d" --iterations 10 --out "$out/dump/$w-$s-$d" >/dev/null || return 1
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
print(f"worst {label}: {len(g)} iterations, max relative difference {worst:.2e} (tolerance {tol:g})")
sys.exit(0 if worst <= tol else 1)
EOF
    done
  done
  return $ok
}
export -f dump_parity

parallel=()
for tool in memcheck racecheck synccheck initcheck; do
  if wanted "$tool"; then
    step "$tool" 400 "sanitize $tool" &
    parallel+=($!)
  fi
done
if wanted dump; then
  step dump 200 dump_parity &
  parallel+=($!)
fi
for pid in "${parallel[@]}"; do wait "$pid" || true; done

# ---- report ---------------------------------------------------------------------
failed=0
summary=()
for name in build gpu-tests nvml sweep bench memcheck racecheck synccheck initcheck dump; do
  [ -f "$out/steps/$name" ] || continue
  IFS=$'\t' read -r verdict rc secs note <"$out/steps/$name"
  case "$verdict" in PASS | SKIPPED) ;; *) failed=1 ;; esac
  summary+=("| $name | $verdict | $rc | $secs s | $note |")
  {
    echo "## $name: $verdict (exit $rc, $secs s)"
    echo
    echo '```'
    [ ! -f "$out/logs/$name.log" ] || tail -n 60 "$out/logs/$name.log"
    echo '```'
    echo
  } >>"$report"
done
{
  echo "## Summary"
  echo
  echo "| step | result | exit | time | note |"
  echo "| --- | --- | ---: | ---: | --- |"
  printf '%s\n' "${summary[@]}"
  echo
  echo "total: $(($(date +%s) - start_s)) s of the $deadline_s s deadline"
} >>"$report"
# The sanitizers' findings, whole, in one file (the report keeps each log's tail).
for tool in memcheck racecheck synccheck initcheck; do
  [ -f "$out/logs/$tool.log" ] || continue
  echo "==== $tool"
  grep -E -B2 -A12 '^========= (Invalid|Race|Barrier|Uninitialized|Program hit|Error|Warning|Potential|ERROR SUMMARY|RACECHECK SUMMARY)' \
    "$out/logs/$tool.log" | head -400 || true
done >"$out/sanitizers.txt"
if [ -n "$bundle" ]; then
  mkdir -p "$bundle"
  cp "$report" "$out/sanitizers.txt" "$bundle/"
  [ ! -f "$out/bench.txt" ] || cp "$out/bench.txt" "$bundle/"
  tar -C "$out" -czf "$bundle/logs.tar.gz" --exclude='dump/*/*.npy' logs steps sweep dump \
    sweep-nvml.yaml 2>/dev/null || tar -C "$out" -czf "$bundle/logs.tar.gz" logs steps
fi
echo "gpu-check: report in $report"
printf '%s\n' "${summary[@]}"
exit "$failed"
