#!/usr/bin/env bash
# CI with sanitizers (CUDA off, Clang), each in its own build directory:
#   asan  AddressSanitizer + UndefinedBehaviorSanitizer, every unit test
#         except the whole-sweep training ones, the source tree's checks
#         (tools:) and the .deb's, which the native build runs
#   tsan  ThreadSanitizer, the tests that run the sampler thread and the
#         runner: every power: test, the cli: runs with a sensor (trace,
#         simulated TX2) and the measure command, and the monitor's C++ API
#   fuzz  scripts/fuzz.sh: every libFuzzer target for --fuzz-time seconds,
#         from --fuzz-seed (default: a new seed each run)
# With Clang (the default), the asan build is also the fuzz build: its code
# is instrumented for libFuzzer's coverage too (EDPBENCH_BUILD_FUZZERS), so
# the fuzz step links the six targets against the objects asan compiled
# instead of compiling every library a third time (174 s of CI, docs/ci.md).
# With EDPBENCH_SANITIZER_CXX naming GCC (no libFuzzer), fuzz.sh makes its
# own Clang build.
# A sanitizer report fails the test that triggered it (UBSan does not
# recover; ASan and TSan exit non-zero), including in the edpbench processes
# the cli tests start. Prints the time of each step.
#
# usage: scripts/ci-sanitizers.sh [--jobs N] [--fuzz-time S] [--fuzz-seed N]
#                                 [asan] [tsan] [fuzz]   (default: all three)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
jobs=2
fuzz_time=60
fuzz_seed=()
steps=()
while [ $# -gt 0 ]; do
  case "$1" in
    --jobs) jobs="$2"; shift 2 ;;
    --fuzz-time) fuzz_time="$2"; shift 2 ;;
    --fuzz-seed) fuzz_seed=(--seed "$2"); shift 2 ;;
    asan|tsan|fuzz) steps+=("$1"); shift ;;
    -h|--help) awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0"; exit 0 ;;
    *) echo "ci-sanitizers.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done
[ ${#steps[@]} -gt 0 ] || steps=(asan tsan fuzz)

# Trains whole sweeps: minutes each under ASan, and the native build runs them.
slow='loss falls at every size|loss diverges to inf|SIGTERM mid-sweep then --resume|SIGINT mid-sweep exits 130'
# Nothing of edpbench's code runs in these: the tools: tests read the source
# tree's includes, and the .deb test packs the build and reads the package
# (dpkg-deb, 21 s under ASan). The native stage runs both.
slow+='|^tools:|^deploy: deb holds'
# The sampler thread (power:), the runner with a sensor (cli:), and the
# monitor's C++ API, whose windows, baselines and writes come from the
# user's threads (two measure_idle at once raced on the meter's idle window
# counter, found by review in ff3aa85: the kind of defect TSan reports).
threaded='^power:|^cli:(constant trace power|a sensor failing mid-run|a failing rail outside|tx2\.yaml on a live|measure: )|^monitor: ?C\+\+ API'

launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
# Clang (14 in Debian 12), not GCC: the same ASan, UBSan and TSan, compiled in
# about half the time (an ASan+UBSan compile of recommend_command.cpp at -O1:
# GCC 18 s, Clang 10 s; a CLI test at -O0: 9 s and 3.5 s), and the sanitizer
# builds were most of CI's compile time (docs/ci.md). The native, cross and
# CUDA 11.8 builds stay with GCC, so both compilers build every file.
sanitizer_cxx="${EDPBENCH_SANITIZER_CXX:-clang++}"
command -v "$sanitizer_cxx" >/dev/null ||
  { echo "ci-sanitizers.sh: needs $sanitizer_cxx (scripts/setup-deps.sh --fuzz)" >&2; exit 2; }
# Without OpenMP (libomp-dev for Clang) CMake would build the workloads
# without their OpenMP paths, which would then go unsanitized, silently.
printf 'int main() { return 0; }\n' | "$sanitizer_cxx" -fopenmp -x c++ - -o /dev/null 2>/dev/null ||
  { echo "ci-sanitizers.sh: $sanitizer_cxx cannot build with -fopenmp (libomp-dev;" \
         "scripts/setup-deps.sh --fuzz)" >&2; exit 2; }
configure() {  # configure DIR SANITIZERS [CMAKE ARGS]
  cmake -S "$root" -B "$1" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_COMPILER="$sanitizer_cxx" \
    -DEDPBENCH_SANITIZE="$2" -DEDPBENCH_WITH_CUDA=OFF -DEDPBENCH_NATIVE=OFF \
    -DEDPBENCH_BUILD_TESTS=ON "${launcher[@]}" "${@:3}" >/dev/null
}
# The asan build, which the fuzz step reuses with Clang (ci-gpu-sim.sh
# configures its ASan build as this one, for ccache).
asan_build="$root/build-asan"
fuzzers=()
"$sanitizer_cxx" --version 2>/dev/null | grep -q clang && fuzzers=(-DEDPBENCH_BUILD_FUZZERS=ON)
configure_asan() { configure "$asan_build" address,undefined "${fuzzers[@]}"; }
# Uninstrumented OpenMP (Clang's libomp) and OpenBLAS threads are invisible to
# TSan; one thread each keeps its reports to edpbench's own threads.
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1

times=()
for s in "${steps[@]}"; do
  t0=$(date +%s)
  echo "==> $s" >&2
  case "$s" in
    asan)
      configure_asan
      cmake --build "$asan_build" -j "$jobs"
      # Twice the CPUs: the suite mostly waits (233 s at -j2, 120 s at -j4 on
      # 2 CPUs, the same CPU seconds; docs/ci.md).
      (cd "$asan_build" && ctest --output-on-failure --no-tests=error -j $(( 2 * jobs )) --timeout 900 -E "$slow")
      ;;
    tsan)
      configure "$root/build-tsan" thread
      cmake --build "$root/build-tsan" -j "$jobs" --target edpbench edp_tests_power edp_tests_cli \
        edp_tests_monitor
      # Twice the CPUs too: these tests wait for sensor periods (79 s at -j2,
      # 46 s at -j4 on 2 CPUs).
      (cd "$root/build-tsan" && ctest --output-on-failure --no-tests=error -j $(( 2 * jobs )) \
        --timeout 900 -R "$threaded")
      ;;
    fuzz)
      # In the asan build with Clang: fuzz.sh keeps its configuration and
      # builds only the targets (nothing to compile when the asan step ran
      # before). Else in fuzz.sh's own build-fuzz/.
      fuzz_build=()
      if [ ${#fuzzers[@]} -gt 0 ]; then
        configure_asan
        fuzz_build=(--build-dir "$asan_build")
      fi
      "$root/scripts/fuzz.sh" "${fuzz_build[@]}" --jobs "$jobs" --time "$fuzz_time" "${fuzz_seed[@]}"
      ;;
  esac
  times+=("$(printf '%-5s %5ss' "$s" "$(( $(date +%s) - t0 ))")")
done
echo "ci-sanitizers timings ($jobs jobs):" >&2
printf '  %s\n' "${times[@]}" >&2
