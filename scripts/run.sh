#!/usr/bin/env bash
# Sets up, builds and runs the main job: a sweep of configs/quick.yaml (a few
# minutes on 2 cores), then prints the CPU/GPU recommendation and writes an
# HTML report. Pass another config and output directory to run a real sweep.
# Installs only what building and running edpbench needs (setup-deps.sh
# --run) and builds edpbench alone in build-run/ (tests off), apart from the
# test build of scripts/test.sh in build/ (docs/ci.md).
#
# usage: scripts/run.sh [CONFIG] [OUT_DIR]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
config="${1:-$root/configs/quick.yaml}"
out="${2:-$root/results-quick/$(date -u +%Y%m%dT%H%M%SZ)}"
"$root/scripts/setup-deps.sh" --run
cmake -S "$root" -B "$root/build-run" -G Ninja -DEDPBENCH_BUILD_TESTS=OFF >/dev/null
cmake --build "$root/build-run" -j "$(nproc)" --target edpbench
bin="$root/build-run/src/cli/edpbench"
rc=0
"$bin" run --config "$config" --out "$out" || rc=$?
[ "$rc" -eq 0 ] || exit "$rc"
# EDP needs energy; on a machine without a power sensor, decide by time.
objective=edp
if ! "$bin" recommend "$out/results.csv" --objective edp >/dev/null 2>&1; then
  echo "run.sh: no energy was measured here (see 'edpbench sensors'); recommending by time" >&2
  objective=time
fi
"$bin" recommend "$out/results.csv" --objective "$objective" --csv "$out/recommendation.csv" || true
"$bin" report "$out" -o "$out/report.html"
echo "results: $out (results.csv, runs.csv, rails.csv, context.json, report.html)" >&2
