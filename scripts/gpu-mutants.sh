#!/usr/bin/env bash
# Shows that the GPU simulator suite catches the bugs a review looks for: each
# mutant below is applied to the CUDA sources alone, the simulator build
# (scripts/ci-gpu-sim.sh's build directory) is rebuilt incrementally, and the
# simulator suite must fail (a test fails, or the simulator aborts with a
# report). The sources are restored after each mutant, and on exit whatever
# happens. Prints a table and the kill count; exits 1 if a mutant survives or
# no longer applies.
#
# usage: scripts/gpu-mutants.sh [--build-dir DIR] [--jobs N] [--only NAME]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="$root/build-gpusim"
jobs=2
only=""
while [ $# -gt 0 ]; do
  case "$1" in
    --build-dir) build="$2"; shift 2 ;;
    --jobs) jobs="$2"; shift 2 ;;
    --only) only="$2"; shift 2 ;;
    -h|--help) sed -n '2,11p' "$0"; exit 0 ;;
    *) echo "gpu-mutants.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
if [ ! -f "$build/build.ninja" ] || ! grep -q 'EDPBENCH_GPU_SIM:BOOL=ON' "$build/CMakeCache.txt"; then
  echo "gpu-mutants.sh: $build is not a simulator build; run scripts/ci-gpu-sim.sh first" >&2
  exit 2
fi

cuda="$root/src/workloads/cuda"
backup="$(mktemp -d)"
cp "$cuda"/*.cu "$cuda"/*.cpp "$backup"/
restore() { cp "$backup"/* "$cuda"/; }
trap 'restore; rm -rf "$backup"' EXIT

# name | file | exact text | replacement (python string literals, one occurrence)
mutants=$(cat <<'LIST'
operands-not-swapped|cuda_backend.cpp|"cublasSgemm(cublas_.get(), op_b, op_a, n, m, k, &alpha, b.data(), ldb, a.data(),\n                               lda, &beta"|"cublasSgemm(cublas_.get(), op_a, op_b, m, n, k, &alpha, a.data(), lda, b.data(),\n                               ldb, &beta"
transposes-swapped|cuda_backend.cpp|"cublasSgemm(cublas_.get(), op_b, op_a,"|"cublasSgemm(cublas_.get(), op_a, op_b,"
ldc-is-m|cuda_backend.cpp|"const int ldc = n;"|"const int ldc = m;"
no-syncthreads|kernels.cu|"  if (lane == 0) warp_sums[warp] = v;\n  __syncthreads();\n"|"  if (lane == 0) warp_sums[warp] = v;\n"
half-warp-shuffle|kernels.cu|"__device__ double block_sum(double v) {\n  __shared__ double warp_sums[kThreads / kWarp];\n  for (int offset = kWarp / 2; offset > 0; offset /= 2) {\n    v += __shfl_down_sync(0xffffffffu,"|"__device__ double block_sum(double v) {\n  __shared__ double warp_sums[kThreads / kWarp];\n  for (int offset = kWarp / 2; offset > 0; offset /= 2) {\n    v += __shfl_down_sync(0x0000ffffu,"
tail-off-by-one-map1|kernels.cu|"i < n; i += stride) out[i] = op(x[i]);"|"i <= n; i += stride) out[i] = op(x[i]);"
tail-off-by-one-map2|kernels.cu|"i < n; i += stride) out[i] = op(a[i], b[i]);"|"i <= n; i += stride) out[i] = op(a[i], b[i]);"
no-event-sync-in-timer|cuda_backend.cpp|"  CUDA_CHECK_THROW(cudaEventSynchronize(run_stop_.get()));\n"|""
no-stream-sync-in-synchronize|cuda_backend.cpp|"void CudaBackend::synchronize() {\n  activate();\n  CUDA_CHECK_THROW(cudaStreamSynchronize(stream_.get()));\n"|"void CudaBackend::synchronize() {\n  activate();\n"
LIST
)

apply() {  # apply FILE OLD NEW: exactly one occurrence must exist
  python3 - "$1" "$2" "$3" <<'PY'
import ast, sys
path, old, new = sys.argv[1], ast.literal_eval(sys.argv[2]), ast.literal_eval(sys.argv[3])
text = open(path).read()
if text.count(old) < 1:
    sys.exit(3)
open(path, "w").write(text.replace(old, new, 1))
PY
}

suite() {  # the simulator suite, fastest first; stops at the first failure
  local log="$1" bin="$build/tests/edp_tests_gpu_sim"
  "$bin" "[gpu]~*brackets the steps*" >>"$log" 2>&1 &&
    "$bin" "~[gpu]~[trajectory]" >>"$log" 2>&1 &&
    EDPBENCH_SIM_ITERATIONS=3 "$bin" "[trajectory]" >>"$log" 2>&1
}

first_failure() {  # what killed it: a simulator abort, else the first failed check
  local abort
  abort=$(grep -m1 -E 'edpbench GPU simulator: (kernel |cublasSgemm wrote|.* wrote past)' "$1" || true)
  if [ -n "$abort" ]; then
    echo "$abort" | cut -c1-160
  else
    grep -m1 -A3 -E 'FAILED:' "$1" | tr -s ' \n' ' ' | cut -c1-160 || true
  fi
}

start=$(date +%s)
total=0
killed=0
rows=()
while IFS='|' read -r name file old new; do
  [ -n "$name" ] || continue
  [ -z "$only" ] || [ "$only" = "$name" ] || continue
  total=$((total + 1))
  restore
  t0=$(date +%s)
  log="$build/mutant-$name.log"
  : >"$log"
  if ! apply "$cuda/$file" "$old" "$new"; then
    rows+=("$(printf '%-30s %-17s %-9s %s' "$name" "$file" "NOT-APPLIED" "the text to mutate is gone; update the list")")
    continue
  fi
  if ! nice -n 10 cmake --build "$build" -j "$jobs" --target edp_tests_gpu_sim >>"$log" 2>&1; then
    result="killed"; why="build failed"
  elif suite "$log"; then
    result="SURVIVED"; why="every simulator test passed"
  else
    result="killed"; why="$(first_failure "$log")"
  fi
  [ "$result" = killed ] && killed=$((killed + 1))
  rows+=("$(printf '%-30s %-17s %-9s %4ss  %s' "$name" "$file" "$result" "$(( $(date +%s) - t0 ))" "$why")")
done <<<"$mutants"
restore
echo "rebuilding the unmutated sources" >&2
nice -n 10 cmake --build "$build" -j "$jobs" --target edp_tests_gpu_sim >/dev/null

printf '%-30s %-17s %-9s %5s  %s\n' mutant file result time "first failure"
printf '%s\n' "${rows[@]}"
echo "gpu mutants: $killed of $total killed in $(( $(date +%s) - start )) s"
[ "$killed" -eq "$total" ]
