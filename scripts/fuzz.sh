#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz/, clang with ASan and UBSan) and runs
# each for a fixed time on a copy of its seed corpus (fuzz/corpus/<target>/),
# --jobs of them at a time (one process each). Installs clang when missing
# (scripts/setup-deps.sh --run --fuzz).
# A crash, a sanitizer report, a leak or a hang (one input > 10 s) fails the
# script; the input that caused it is kept in <build dir>/findings/<target>/.
#
# usage: scripts/fuzz.sh [--time S] [--seed N] [--build-dir DIR] [--jobs N] [TARGET...]
#   --time S   seconds per target (default 60)
#   --build-dir DIR  where to build (default build-fuzz/); a folder configured
#              already is used with its settings only when it builds the
#              fuzzers (EDPBENCH_BUILD_FUZZERS=ON: Clang, ASan and UBSan, as
#              ci-sanitizers.sh's asan build), else refused untouched
#   --jobs N   build jobs, and targets fuzzed at once (default: the CPUs)
#   --seed N   libFuzzer's random seed (default: a new one each run). CI
#              passes a fixed seed so that a run is a regression gate whose
#              inputs are repeatable; exploration runs leave it out.
#   TARGET     fuzz_config fuzz_trace fuzz_results_csv fuzz_context_json
#              fuzz_sysfs fuzz_nvpmodel (default: all)
# Reproduce a finding: <build dir>/fuzz/<target> <input file>
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="$root/build-fuzz"
seconds=60
seed_arg=()
jobs="$(nproc)"
targets=()
while [ $# -gt 0 ]; do
  case "$1" in
    --time) seconds="$2"; shift 2 ;;
    --seed) seed_arg=(-seed="$2"); shift 2 ;;
    --build-dir) build="$2"; shift 2 ;;
    --jobs) jobs="$2"; shift 2 ;;
    -h|--help) awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0"; exit 0 ;;
    -*) echo "fuzz.sh: unknown argument '$1'" >&2; exit 2 ;;
    *) targets+=("$1"); shift ;;
  esac
done
[ ${#targets[@]} -gt 0 ] ||
  targets=(fuzz_config fuzz_trace fuzz_results_csv fuzz_context_json fuzz_sysfs fuzz_nvpmodel)
"$root/scripts/setup-deps.sh" --run --fuzz
command -v clang++ >/dev/null || { echo "fuzz.sh: needs clang++ (apt-get install clang)" >&2; exit 2; }

launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
# A configured build folder that builds the fuzzers keeps its compiler and
# settings: ci-sanitizers.sh's asan build (Clang, ASan and UBSan, tests and
# fuzzers) is reused as it is, with nothing to compile again. A new one gets
# Clang and no tests (they need Catch2, which --fuzz does not install).
if [ -f "$build/CMakeCache.txt" ]; then
  # Reconfiguring another build with the fuzzers on would leave it unusable
  # (GCC) or rebuild it with other flags: refuse instead.
  grep -qx 'EDPBENCH_BUILD_FUZZERS:BOOL=ON' "$build/CMakeCache.txt" || {
    echo "fuzz.sh: $build is a build folder without the fuzzers (EDPBENCH_BUILD_FUZZERS);" \
         "give a new folder with --build-dir, or leave it out (build-fuzz/)" >&2
    exit 2
  }
  cmake -S "$root" -B "$build" >/dev/null
else
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_CXX_COMPILER=clang++ \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo -DEDPBENCH_BUILD_FUZZERS=ON -DEDPBENCH_BUILD_TESTS=OFF \
    -DEDPBENCH_WITH_CUDA=OFF -DEDPBENCH_NATIVE=OFF "${launcher[@]}" >/dev/null
fi
cmake --build "$build" -j "$jobs" --target "${targets[@]}"

fuzz_one() {  # fuzz_one TARGET: exit status 0 when nothing was found
  local t="$1" work="$build/corpus/$1" findings="$build/findings/$1"
  rm -rf "$work" && mkdir -p "$work" "$findings"
  cp "$root/fuzz/corpus/$t/"* "$work/"
  # -timeout: one input taking over 10 s is a hang. The corpus copy grows;
  # the seeds in fuzz/corpus stay as they are.
  (cd "$findings" && UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    "$build/fuzz/$t" "${seed_arg[@]}" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
      -max_len=8192 -print_final_stats=1 "$work" > "$build/$t.log" 2>&1)
}
report() {  # report TARGET STATUS
  local t="$1"
  if [ "$2" -eq 0 ]; then
    echo "$t: $(grep -E '^stat::number_of_executed_units' "$build/$t.log" | tail -1)" >&2
  else
    failed+=("$t")
    tail -40 "$build/$t.log" >&2
    echo "fuzz.sh: $t failed; inputs in $build/findings/$t, log $build/$t.log" >&2
  fi
}
failed=()
pids=()
names=()
echo "==> ${#targets[@]} targets, ${seconds} s each, $jobs at a time" >&2
for t in "${targets[@]}"; do
  if [ ${#pids[@]} -ge "$jobs" ]; then  # wait for the oldest
    rc=0; wait "${pids[0]}" || rc=$?
    report "${names[0]}" $rc
    pids=("${pids[@]:1}"); names=("${names[@]:1}")
  fi
  fuzz_one "$t" &
  pids+=($!); names+=("$t")
done
for i in "${!pids[@]}"; do
  rc=0; wait "${pids[$i]}" || rc=$?
  report "${names[$i]}" $rc
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz.sh: findings in: ${failed[*]}" >&2
  exit 1
fi
echo "fuzz.sh: ${#targets[@]} targets, ${seconds} s each, no findings" >&2
