#!/usr/bin/env bash
# Interference demonstration (DESIGN §3): the same small sweep (tensors,
# small size, 1 and 2 threads, constant 7.5 W trace) measured twice, once on
# the machine as it is and once beside a neighbour that spins on every CPU
# the sweep uses; prints per configuration the median time, the median
# preempted_share and others_cpu_share, and how many runs were flagged
# `disturbed`. Says how busy the machine was before it started (loadavg):
# the "quiet" half is only as quiet as the machine.
#
# usage: scripts/bench-interference.sh [BUILD_DIR]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${1:-$root/build}"
bin="$build/src/cli/edpbench"
[ -x "$bin" ] || { echo "bench-interference: build edpbench first ($bin)" >&2; exit 2; }
work="$(mktemp -d /tmp/edpbench-interference-XXXXXX)"
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
cat >"$work/cfg.yaml" <<YAML
name: interference
iterations: 20
runs: 8
warmup_iterations: 2
learning_rate: 1.0e-6
init_scale: 0.1
workloads: [tensors]
sizes: {small: {n: 64, d_in: 15000, h: 100, d_out: 150}}
devices: [{kind: cpu, threads: 1, cpus: "0"}, {kind: cpu, threads: 2, cpus: "0,1"}]
power:
  source: trace
  trace: {file: $root/tests/fixtures/cli/constant_7w5.csv}
  baseline_s: 0
  min_run_s: 0.3
YAML
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
"$bin" run --config "$work/cfg.yaml" --out "$work/quiet" 2>/dev/null
# One spinning process per CPU the sweep uses (0 and 1).
for cpu in 0 1; do taskset -c "$cpu" sh -c 'while :; do :; done' & done
sleep 0.2
"$bin" run --config "$work/cfg.yaml" --out "$work/busy" 2>"$work/busy.err"
kill $(jobs -p) 2>/dev/null || true
grep -o "warning: the machine is busy[^;]*" "$work/busy.err" | head -1 || true
python3 - "$work" <<'PY'
import csv, statistics, sys
work = sys.argv[1]
print(f"{'machine':8} {'threads':>7} {'time_s':>9} {'preempted':>9} {'others':>7} {'disturbed':>9}")
for name in ("quiet", "busy"):
    rows = list(csv.DictReader(open(f"{work}/{name}/runs.csv")))
    res = {r["key"]: r for r in csv.DictReader(open(f"{work}/{name}/results.csv"))}
    for key in dict.fromkeys(r["key"] for r in rows):
        rr = [r for r in rows if r["key"] == key]
        med = lambda c: statistics.median(float(r[c]) for r in rr)
        print(f"{name:8} {res[key]['threads']:>7} {med('time_s'):9.4f} {med('preempted_share'):9.3f} "
              f"{med('others_cpu_share'):7.3f} {sum(r['disturbed'] == 'true' for r in rr):>4} of {len(rr)}")
PY
