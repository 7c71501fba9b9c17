#!/usr/bin/env bash
# CI: the GPU code executed on the CPU. Builds edpbench and every test with
# the CUDA sources compiled as C++ against the SIMT simulator and the fake
# CUDA runtime, driver, cuBLAS and cuDNN of tests/gpu_sim
# (-DEDPBENCH_GPU_SIM=ON; docs/gpu.md, "The GPU simulator"), then runs:
#   suite      the simulator's own tests, the backend's [gpu] tests and the
#              GPU paths against the CPU (gpu_sim:), and every other test that
#              can reach the GPU code with a (simulated) GPU present, so the
#              CLI, the runner and make_backend_for take their GPU branches.
#              Not what cannot, which the native stage ran in the same
#              objects: power:, report:, tools: (sensors, files, the source
#              tree's includes), monitor: (edpbench_monitor does not link
#              edp_workloads, where the CUDA backend is), deploy: (packaging,
#              Prometheus, Chromium; their sweeps are CPU-only), and of
#              workloads: test_cuda_backend.cpp's cases (gpu_sim: runs the
#              same file) and the CPU-only loss check at every size of
#              default.yaml (24 s). An area added later runs here until it
#              is listed. Tests whose assumption a simulated GPU makes false
#              are tagged [not-simulated] (Catch2) or disabled in a simulator
#              build and show as "Not Run (Disabled)".
#   cuda 10.2, 12.0
#              the backend's tests again under those versions' rules
#              (EDPBENCH_SIM_CUDA_VERSION; the suite runs as 11.8)
#   asan       edp_tests_gpu_sim under AddressSanitizer + UBSan: the loss
#              trajectories at the small size for 2 iterations (the plain run
#              does 10 small and 3 medium), and without the ten-step MLP test
#              and the device timer's 1024^2 GEMMs (instrumented, a minute
#              each, and nothing ASan would add to)
# Each build directory is reused between runs. Prints the tests run (test
# cases, not ctest entries) and the time of each step.
#
# usage: scripts/ci-gpu-sim.sh [--jobs N] [--no-asan] [--asan-iterations N]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
jobs=2
asan=1
asan_iterations=2
while [ $# -gt 0 ]; do
  case "$1" in
    --jobs) jobs="$2"; shift 2 ;;
    --no-asan) asan=0; shift ;;
    --asan-iterations) asan_iterations="$2"; shift 2 ;;
    -h|--help) awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0"; exit 0 ;;
    *) echo "ci-gpu-sim.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done

launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
# The plain build is configured as scripts/test.sh configures build/ (Release,
# the native CPU), and the ASan build as ci-sanitizers.sh's asan build: every
# object the simulator does not change (all but the CUDA sources, the few
# files that read edpbench/config.h and the simulator's own) is then the same
# compilation, which ccache answers (.ci/run sets CCACHE_BASEDIR).
configure() {  # configure DIR BUILD_TYPE SANITIZERS NATIVE [CMAKE ARGS]
  cmake -S "$root" -B "$1" -G Ninja -DCMAKE_BUILD_TYPE="$2" -DEDPBENCH_SANITIZE="$3" \
    -DEDPBENCH_GPU_SIM=ON -DEDPBENCH_WITH_CUDA=OFF -DEDPBENCH_NATIVE="$4" \
    -DEDPBENCH_BUILD_TESTS=ON "${launcher[@]}" "${@:5}" >/dev/null
}
# ctest in DIR with ARGS; prints the failures, or the tail and the count of
# test cases that ran (each ctest entry runs one Catch2 case or one script).
run_ctest() {  # run_ctest DIR LABEL TESTS_AT_ONCE [ctest args]
  local out rc=0 dir="$1" label="$2" at_once="$3"
  shift 3
  out=$(cd "$dir" && ctest --output-on-failure --no-tests=error -j "$at_once" --timeout 900 "$@" 2>&1) ||
    rc=$?
  if [ "$rc" -ne 0 ]; then
    echo "$out"
    return "$rc"
  fi
  local summary disabled
  summary=$(echo "$out" | grep -E 'tests passed, [0-9]+ tests failed out of [0-9]+' | tail -1)
  disabled=$(echo "$out" | grep -c '(Disabled)' || true)
  echo "gpu sim ($label): $summary; $disabled disabled (not meaningful on a simulated GPU)"
  echo "$out" | grep -E '\(Disabled\)' | sed 's/^/  /' || true
}

export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1
start=$(date +%s)
times=()
t0=$(date +%s)
configure "$root/build-gpusim" Release "" ON
cmake --build "$root/build-gpusim" -j "$jobs"
times+=("$(printf '%-22s %5ss' 'build (everything)' "$(( $(date +%s) - t0 ))")")
t0=$(date +%s)
# Not what cannot reach the GPU code (see the header): the native stage ran
# it, in the same objects. The rest of workloads: stays (make_backend_for's
# GPU branch pins the launching thread only where a GPU is there).
# Twice the CPUs, as the native stage: most of these tests wait (sensor
# periods, edpbench processes); at -j2 the suite took 203 s on 2 CPUs. The
# simulator's own runs below are CPU-bound: one per CPU.
run_ctest "$root/build-gpusim" "all but power:, report:, tools:, monitor:, deploy: and workloads:' CPU-only and duplicate cases; CUDA 11.8 rules" \
  $(( 2 * jobs )) -E '^(power|report|tools|monitor|deploy):|^workloads:(cuda[ _]|under default\.yaml the loss falls)'
times+=("$(printf '%-22s %5ss' 'suite' "$(( $(date +%s) - t0 ))")")
# The suite runs as CUDA 11.8; the backend's tests again as 10.2 (flags only
# before the context exists) and 12.0 (cudaSetDevice creates the context).
for version in 10020 12000; do
  t0=$(date +%s)
  EDPBENCH_SIM_CUDA_VERSION=$version run_ctest "$root/build-gpusim" "backend tests as CUDA $version" \
    "$jobs" -R '^gpu_sim:(cuda|make_cuda|sim gpu: making)'
  times+=("$(printf '%-22s %5ss' "backend as $version" "$(( $(date +%s) - t0 ))")")
done

if [ "$asan" = 1 ]; then
  export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0
  export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
  t0=$(date +%s)
  # Clang, as ci-sanitizers.sh's asan build (the same objects from ccache;
  # that build is also the fuzzers' one, instrumented for their coverage).
  sanitizer_cxx="${EDPBENCH_SANITIZER_CXX:-clang++}"
  fuzzers=()
  "$sanitizer_cxx" --version 2>/dev/null | grep -q clang && fuzzers=(-DEDPBENCH_BUILD_FUZZERS=ON)
  configure "$root/build-gpusim-asan" RelWithDebInfo address,undefined OFF \
    -DCMAKE_CXX_COMPILER="$sanitizer_cxx" "${fuzzers[@]}"
  cmake --build "$root/build-gpusim-asan" -j "$jobs" --target edp_tests_gpu_sim
  times+=("$(printf '%-22s %5ss' 'build asan+ubsan' "$(( $(date +%s) - t0 ))")")
  t0=$(date +%s)
  EDPBENCH_SIM_SIZES=small EDPBENCH_SIM_ITERATIONS="$asan_iterations" \
    run_ctest "$root/build-gpusim-asan" "asan+ubsan" "$jobs" -R '^gpu_sim:' \
    -E 'MLP training follows the reference loss|device timer brackets the steps'
  times+=("$(printf '%-22s %5ss' 'suite asan+ubsan' "$(( $(date +%s) - t0 ))")")
fi
echo "ci-gpu-sim timings ($jobs jobs):"
printf '  %s\n' "${times[@]}"
echo "GPU code on the simulator (whole suite, CUDA 10.2/12.0, ASan+UBSan): $(( $(date +%s) - start )) s"
